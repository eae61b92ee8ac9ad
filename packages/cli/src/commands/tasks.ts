// `cadre tasks list|show|create|assign|comment|close|review`: the operator's side of the company's work.
// Thin: every rule is the company layer's (work/tasks.ts), the same the API and the tools apply.
// An operator port operation (local store or --server): the company functions locally,
// GET/POST /api/companies/{id}/tasks and /api/tasks/{id}… over HTTP, rendered once.
import {
  assignTaskSchema,
  checkInput,
  closeTaskSchema,
  commentTaskSchema,
  createTaskSchema,
  reviewTaskSchema,
  type TaskResult,
} from "@cadre/company";
import { writeFile } from "node:fs/promises";
import { isOneOf, TASK_STATUSES, type TaskStatus } from "@cadre/model";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { withOperator } from "../operator/open.js";
import { PAGE_HELP, PAGE_OPTIONS, pageFromFlags, printNextPage } from "../operator/pages.js";
import type { OperatorPort } from "../operator/port.js";
import { taskChangeText, taskDetailText, tasksText } from "../operator/render/tasks.js";

/** Files printed as they are; anything else is written to a file (--out). */
const TEXT_TYPES = new Set(["text/markdown", "text/plain", "text/csv", "application/json"]);

export const TASKS_HELP = `Usage:
  cadre tasks list   [--status S[,S…]] [--assignee AGENT] [--company ID] [--limit N] [--after CURSOR] [--json]
  cadre tasks show   TASK_ID [--json]
  cadre tasks create --title TEXT [--description TEXT] [--assignee AGENT] [--blocked-by ID[,ID…]] [--parent ID] [--company ID] [--json]
  cadre tasks assign TASK_ID AGENT [--json]
  cadre tasks comment TASK_ID TEXT [--json]
  cadre tasks close  TASK_ID [--cancel] [--deliverable TEXT] [--json]
  cadre tasks review TASK_ID (--accept | --changes TEXT) [--json]
  cadre tasks file   TASK_ID FILE [--out PATH] [--json]

The company's tasks, once its strategy is approved. AGENT is an agent id or a name as \`cadre agents
list\` shows it. What wakes whom is decided in code: assigning a task wakes its assignee (unless it
waits for blockers); a comment wakes the assignee of an open task; a task its assignee marks done is handed
in (in_review) and wakes the agent that created it, to review it; a task accepted is done and wakes
the agent that created it, and the assignees of tasks it was the last blocker of; a cancelled or
finished task wakes nobody. \`cadre run\` then runs those wakes. \`close\` marks a task done (it needs a
deliverable: given here or already handed in) or, with --cancel, cancelled. \`review\` decides on
a task handed in: --accept makes it done; --changes TEXT sends it back to its assignee with TEXT as
the reasons, and wakes it. The agent that created a task reviews it; after a company's bound on
rounds of changes (reviewRounds, default 3) the next request for changes is the operator's to
decide. With the company setting acceptance: automatic, a task marked done is done at once.

Agents hand in files from their workspace with a task (at most 10 per update, 1 MiB each); a copy
is kept with the task, so a later edit of the file changes nothing handed in. \`show\` lists them
(name, size, SHA-256 prefix); \`file\` prints one (by its id, or the latest copy of a name) when
it is text, or writes it to PATH with --out; with --json it prints the file's record and its bytes
as base64.

\`list\` shows a page at a time, oldest first; when more follow it prints the command for the next
page (with --json, on stderr).

Statuses: ${TASK_STATUSES.join(", ")}. Options: --data DIR, --json (stdout holds JSON only).
${PAGE_HELP}
${DATABASE_HELP}
${SERVER_HELP}`;

export async function tasksCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${TASKS_HELP}\n`), sub ? 0 : 2);
  /** A change (create, assign, comment, close) through the port, printed the same either way. */
  const change = async (
    values: { data?: string; database?: string; json?: boolean },
    act: (port: OperatorPort) => Promise<TaskResult>,
  ) => {
    const result = await withOperator(values, io, server, act);
    io.out(values.json ? `${JSON.stringify(result)}\n` : taskChangeText(result));
    return 0;
  };
  switch (sub) {
    case "list": {
      const { values } = parse("tasks list", rest, {
        ...STORE_OPTIONS,
        company: { type: "string" },
        status: { type: "string" },
        assignee: { type: "string" },
        ...PAGE_OPTIONS,
      });
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const page = pageFromFlags("tasks list", values);
      const statuses = values.status?.split(",").map((s) => s.trim());
      for (const s of statuses ?? [])
        if (!isOneOf(TASK_STATUSES, s))
          throw new UsageError(`tasks list: --status must be among ${TASK_STATUSES.join(", ")} (got "${s}")`);
      // The read-only subcommands open the store read-only: listing never writes, nor needs write access.
      const { tasks, agents, nextCursor } = await withOperator(
        values,
        io,
        server,
        (port) =>
          port.listTasks({
            ...(values.company !== undefined ? { companyId: values.company } : {}),
            ...(statuses ? { statuses: statuses as TaskStatus[] } : {}),
            ...(values.assignee !== undefined ? { assignee: values.assignee } : {}),
            page,
          }),
        "read",
      );
      io.out(values.json ? `${JSON.stringify(tasks)}\n` : tasksText(tasks, agents));
      printNextPage(io, values, nextCursor, "tasks list", rest);
      return 0;
    }
    case "show": {
      const { values, positionals } = parse("tasks show", rest, STORE_OPTIONS, 1);
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const id = positionals[0];
      if (!id) throw new UsageError("tasks show: TASK_ID is required (see `cadre tasks list`)");
      const { task, agents } = await withOperator(values, io, server, (port) => port.task(id), "read");
      io.out(values.json ? `${JSON.stringify(task)}\n` : taskDetailText(task, agents));
      return 0;
    }
    case "create": {
      const { values } = parse("tasks create", rest, {
        ...STORE_OPTIONS,
        company: { type: "string" },
        title: { type: "string" },
        description: { type: "string" },
        assignee: { type: "string" },
        "blocked-by": { type: "string" },
        parent: { type: "string" },
      });
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      if (values.title === undefined) throw new UsageError("tasks create: --title TEXT is required");
      const input = checkInput("tasks create", createTaskSchema, {
        title: values.title,
        ...(values.description !== undefined ? { description: values.description } : {}),
        ...(values.assignee !== undefined ? { assignee: values.assignee } : {}),
        ...(values["blocked-by"] !== undefined
          ? {
              blockedBy: values["blocked-by"]
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
            }
          : {}),
        ...(values.parent !== undefined ? { parentTaskId: values.parent } : {}),
      });
      return change(values, (port) => port.createTask(values.company, input));
    }
    case "assign": {
      const { values, positionals } = parse("tasks assign", rest, STORE_OPTIONS, 2);
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const [taskId, assignee] = positionals;
      if (!taskId || !assignee) throw new UsageError("tasks assign: TASK_ID and AGENT are required");
      const input = checkInput("tasks assign", assignTaskSchema, { taskId, assignee });
      return change(values, (port) => port.assignTask(input));
    }
    case "comment": {
      const { values, positionals } = parse("tasks comment", rest, STORE_OPTIONS, 2);
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const [taskId, body] = positionals;
      if (!taskId || body === undefined) throw new UsageError("tasks comment: TASK_ID and TEXT are required");
      const input = checkInput("tasks comment", commentTaskSchema, { taskId, body });
      return change(values, (port) => port.commentOnTask(input));
    }
    case "close": {
      const { values, positionals } = parse(
        "tasks close",
        rest,
        { ...STORE_OPTIONS, cancel: { type: "boolean" }, deliverable: { type: "string" } },
        1,
      );
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const taskId = positionals[0];
      if (!taskId) throw new UsageError("tasks close: TASK_ID is required");
      if (values.cancel && values.deliverable !== undefined)
        throw new UsageError(
          "tasks close: --cancel and --deliverable do not go together (a cancelled task delivers nothing)",
        );
      const input = checkInput("tasks close", closeTaskSchema, {
        taskId,
        status: values.cancel ? "cancelled" : "done",
        ...(values.deliverable !== undefined ? { deliverable: values.deliverable } : {}),
      });
      return change(values, (port) => port.closeTask(input));
    }
    case "review": {
      const { values, positionals } = parse(
        "tasks review",
        rest,
        { ...STORE_OPTIONS, accept: { type: "boolean" }, changes: { type: "string" } },
        1,
      );
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const taskId = positionals[0];
      if (!taskId) throw new UsageError("tasks review: TASK_ID is required");
      if (values.accept === (values.changes !== undefined))
        throw new UsageError(
          'tasks review: give exactly one of --accept or --changes "what is to change and why"',
        );
      const input = checkInput("tasks review", reviewTaskSchema, {
        taskId,
        decision: values.accept ? "accept" : "request_changes",
        ...(values.changes !== undefined ? { reasons: values.changes } : {}),
      });
      return change(values, (port) => port.reviewTask(input));
    }
    case "file": {
      const { values, positionals } = parse(
        "tasks file",
        rest,
        { ...STORE_OPTIONS, out: { type: "string" } },
        2,
      );
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const [taskId, ref] = positionals;
      if (!taskId || !ref)
        throw new UsageError("tasks file: TASK_ID and FILE are required (see `cadre tasks show TASK_ID`)");
      const { file, bytes } = await withOperator(
        values,
        io,
        server,
        (port) => port.taskFile(taskId, ref),
        "read",
      );
      if (values.json) {
        io.out(`${JSON.stringify({ ...file, contentBase64: Buffer.from(bytes).toString("base64") })}\n`);
        if (values.out !== undefined) await writeFile(values.out, bytes);
      } else if (values.out !== undefined) {
        await writeFile(values.out, bytes);
        io.out(`wrote ${file.name} (${file.size} bytes, sha256 ${file.sha256}) to ${values.out}\n`);
      } else if (TEXT_TYPES.has(file.mediaType)) io.out(Buffer.from(bytes).toString("utf8"));
      else
        throw new UsageError(
          `tasks file: ${file.name} is not text (${file.mediaType}); write it to a file with --out PATH`,
        );
      return 0;
    }
    default:
      throw new UsageError(
        `tasks: unknown subcommand "${sub}"; use list, show, create, assign, comment, close, review or file`,
      );
  }
}
