// `cadre tasks list|show|create|assign|comment|close`: the operator's side of the company's work.
// Thin: every rule is the company layer's (work/tasks.ts), the same the API and the tools apply.
import {
  assignTask,
  assignTaskSchema,
  closeTask,
  closeTaskSchema,
  checkInput,
  commentOnTask,
  commentTaskSchema,
  createTask,
  createTaskSchema,
  loadTaskDetail,
  type TaskResult,
  taskView,
} from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { isOneOf, TASK_STATUSES, type TaskStatus } from "@cadre/model";
import type { AgentRow, Store } from "@cadre/store";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const TASKS_HELP = `Usage:
  cadre tasks list   [--status S[,S…]] [--assignee AGENT] [--company ID] [--json]
  cadre tasks show   TASK_ID [--json]
  cadre tasks create --title TEXT [--description TEXT] [--assignee AGENT] [--blocked-by ID[,ID…]] [--parent ID] [--company ID] [--json]
  cadre tasks assign TASK_ID AGENT [--json]
  cadre tasks comment TASK_ID TEXT [--json]
  cadre tasks close  TASK_ID [--cancel] [--deliverable TEXT] [--json]

The company's tasks, once its strategy is approved. AGENT is an agent id or a name as \`cadre agents
list\` shows it. What wakes whom is decided in code: assigning a task wakes its assignee (unless it
waits for blockers); a comment wakes the assignee of an open task; a task done wakes the agent that
created it, and the assignees of tasks it was the last blocker of; a cancelled or finished task
wakes nobody. \`cadre run\` then runs those wakes. \`close\` marks a task done (it needs a
deliverable: given here or already handed in) or, with --cancel, cancelled.

Statuses: ${TASK_STATUSES.join(", ")}. Options: --data DIR, --json (stdout holds JSON only).
${DATABASE_HELP}`;

const OPERATOR = { agentId: null, via: "system" as const, runId: null };

function line(t: ReturnType<typeof taskView>, agents: readonly AgentRow[]): string {
  const name = (id: string | null) =>
    id === null ? "nobody" : (agents.find((a) => a.id === id)?.name ?? id);
  const by = t.creator === "operator" ? "operator" : name(t.creator);
  const blocked = t.blockers.length > 0 ? ` blocked-by ${t.blockers.join(",")}` : "";
  return `${t.id}  ${t.status.padEnd(11)} ${name(t.assigneeAgentId).padEnd(16)} "${t.title}" (by ${by}${blocked}${t.deliverable ? ", deliverable" : ""})`;
}

function applied(
  io: CliIO,
  json: boolean,
  result: { ok: true; value: TaskResult } | { ok: false; message: string; fields: Record<string, string> },
): number {
  if (!result.ok) throw new UserInputError(result.message, result.fields);
  const v = result.value;
  if (json) io.out(`${JSON.stringify(v)}\n`);
  else
    io.out(
      `${v.taskId} "${v.title}": ${v.status}, assigned to ${v.assignee ?? "nobody"}${v.wakes.length > 0 ? `; wakes ${v.wakes.join(", ")} (cadre run)` : ""}\n`,
    );
  return 0;
}

async function withStore<T>(
  values: { data?: string; database?: string },
  io: CliIO,
  fn: (store: Store, dataDir: string) => Promise<T>,
  access: "read" | "write" = "write",
): Promise<T> {
  // The read-only subcommands open the store read-only: listing never writes, nor needs write access.
  const { dataDir, store } = await openData(values, io.env, access);
  try {
    return await fn(store, dataDir);
  } finally {
    await store.close();
  }
}

async function taskCompany(store: Store, taskId: string): Promise<string> {
  const task = await store.getTask(taskId);
  if (!task) throw new UsageError(`task ${taskId} not found (see \`cadre tasks list\`)`);
  return task.companyId;
}

export async function tasksCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${TASKS_HELP}\n`), sub ? 0 : 2);
  switch (sub) {
    case "list": {
      const { values } = parse("tasks list", rest, {
        ...STORE_OPTIONS,
        company: { type: "string" },
        status: { type: "string" },
        assignee: { type: "string" },
      });
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const statuses = values.status?.split(",").map((s) => s.trim());
      for (const s of statuses ?? [])
        if (!isOneOf(TASK_STATUSES, s))
          throw new UsageError(`tasks list: --status must be among ${TASK_STATUSES.join(", ")} (got "${s}")`);
      return withStore(
        values,
        io,
        async (store, dataDir) => {
          const company = await pickCompany(store, values.company, dataDir);
          const agents = await store.listAgents(company.id);
          let assignee: string | undefined;
          if (values.assignee !== undefined) {
            const a = agents.find((x) => x.id === values.assignee || x.name === values.assignee);
            if (!a)
              throw new UsageError(
                `tasks list: --assignee "${values.assignee}" is not an agent of ${company.name}; see cadre agents list`,
              );
            assignee = a.id;
          }
          const tasks = await store.listTasks(company.id, {
            ...(assignee ? { assigneeAgentId: assignee } : {}),
            ...(statuses ? { statuses: statuses as TaskStatus[] } : {}),
          });
          const views = tasks.map(taskView);
          if (values.json) return (io.out(`${JSON.stringify(views)}\n`), 0);
          if (views.length === 0) io.out("no tasks\n");
          for (const v of views) io.out(`${line(v, agents)}\n`);
          return 0;
        },
        "read",
      );
    }
    case "show": {
      const { values, positionals } = parse("tasks show", rest, STORE_OPTIONS, 1);
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const id = positionals[0];
      if (!id) throw new UsageError("tasks show: TASK_ID is required (see `cadre tasks list`)");
      return withStore(
        values,
        io,
        async (store) => {
          const detail = await loadTaskDetail(store, id);
          if (!detail) throw new UsageError(`tasks show: task ${id} not found (see \`cadre tasks list\`)`);
          if (values.json) return (io.out(`${JSON.stringify(detail)}\n`), 0);
          const agents = await store.listAgents(detail.companyId);
          const name = (id: string) =>
            id === "operator" ? "operator" : (agents.find((a) => a.id === id)?.name ?? id);
          io.out(`${line(detail, agents)}\n`);
          if (detail.description) io.out(`\n${detail.description}\n`);
          for (const c of detail.comments)
            io.out(`\ncomment by ${name(c.author)} (${c.createdAt}):\n${c.body}\n`);
          if (detail.deliverable) io.out(`\ndeliverable:\n${detail.deliverable}\n`);
          io.out("\nhistory:\n");
          for (const h of detail.history)
            io.out(`  ${h.at}  ${h.type}${h.runId ? ` (run ${h.runId})` : ""}\n`);
          for (const w of detail.wakes)
            io.out(
              `  wake of ${name(w.agentId)}: ${w.trigger} — ${w.status}${w.runId ? ` (run ${w.runId})` : ""}${w.note ? ` (${w.note})` : ""}\n`,
            );
          return 0;
        },
        "read",
      );
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
      return withStore(values, io, async (store, dataDir) => {
        const company = await pickCompany(store, values.company, dataDir);
        return applied(
          io,
          values.json ?? false,
          await createTask(store, { ...OPERATOR, companyId: company.id }, input),
        );
      });
    }
    case "assign": {
      const { values, positionals } = parse("tasks assign", rest, STORE_OPTIONS, 2);
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const [taskId, assignee] = positionals;
      if (!taskId || !assignee) throw new UsageError("tasks assign: TASK_ID and AGENT are required");
      const input = checkInput("tasks assign", assignTaskSchema, { taskId, assignee });
      return withStore(values, io, async (store) =>
        applied(
          io,
          values.json ?? false,
          await assignTask(store, { ...OPERATOR, companyId: await taskCompany(store, taskId) }, input),
        ),
      );
    }
    case "comment": {
      const { values, positionals } = parse("tasks comment", rest, STORE_OPTIONS, 2);
      if (values.help) return (io.out(`${TASKS_HELP}\n`), 0);
      const [taskId, body] = positionals;
      if (!taskId || body === undefined) throw new UsageError("tasks comment: TASK_ID and TEXT are required");
      const input = checkInput("tasks comment", commentTaskSchema, { taskId, body });
      return withStore(values, io, async (store) =>
        applied(
          io,
          values.json ?? false,
          await commentOnTask(store, { ...OPERATOR, companyId: await taskCompany(store, taskId) }, input),
        ),
      );
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
      return withStore(values, io, async (store) =>
        applied(
          io,
          values.json ?? false,
          await closeTask(store, { ...OPERATOR, companyId: await taskCompany(store, taskId) }, input),
        ),
      );
    }
    default:
      throw new UsageError(
        `tasks: unknown subcommand "${sub}"; use list, show, create, assign, comment or close`,
      );
  }
}
