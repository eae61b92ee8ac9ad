// The offline scripts of the operating company: plumbing, not judgement. They act only through the
// tools they are offered and read only what a model would read — the briefing of their first turn
// (data, quoted) and their tool results — so the whole loop (delegation, work, results) runs with
// no key. The CEO turns the approved strategy into one task per lead; a member works each of its
// startable tasks: in progress, its deliverable written as a file in its workspace, done (handed in
// with the file); the CEO accepts what is handed in with a file and sends back, asking for the file,
// what is handed in without one.
import type { ScriptReply, ScriptRequest } from "@cadre/core/offline";
import type { Context } from "@mariozechner/pi-ai";
import type { MyTasks, TaskBrief } from "../work/my-tasks.js";
import { type PromptView, type ToolCallRecord, toolHistory } from "./read-prompt.js";

function text(t: string): ScriptReply {
  return { content: [{ type: "text", text: t }] };
}

function call(name: string, args: Record<string, unknown>, say: string): ScriptReply {
  return {
    content: [
      { type: "text", text: say },
      { type: "toolCall", name, arguments: args },
    ],
  };
}

/** The first user turn's text: the cue and the briefing. */
export function firstUserText(context: Context): string {
  const first = context.messages.find((m) => m.role === "user");
  if (!first) return "";
  return typeof first.content === "string"
    ? first.content
    : first.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** The quoted lines (`> `) of the briefing section under `heading`, unquoted. */
export function quotedSection(turn: string, heading: string): string[] {
  const at = turn.indexOf(`\n${heading}`);
  if (at < 0) return [];
  const out: string[] = [];
  for (const line of turn
    .slice(at + 1)
    .split("\n")
    .slice(1)) {
    if (line.startsWith("## ")) break;
    if (line === ">") out.push("");
    else if (line.startsWith("> ")) out.push(line.slice(2));
  }
  return out;
}

/** The bullet lines under a markdown heading of the strategy text. */
function bullets(lines: readonly string[], heading: string): string[] {
  const at = lines.findIndex((l) => l.trim() === heading);
  if (at < 0) return [];
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (l.startsWith("#")) break;
    if (l.startsWith("- ")) out.push(l.slice(2).trim());
  }
  return out;
}

/** The latest successful list_my_tasks result of the session. */
function lastList(history: readonly ToolCallRecord[]): MyTasks | undefined {
  const last = history.filter((h) => h.name === "list_my_tasks" && h.ok).at(-1);
  if (!last) return undefined;
  try {
    return JSON.parse(last.resultText) as MyTasks;
  } catch {
    return undefined;
  }
}

const clip = (s: string, n: number) => ([...s].length > n ? `${[...s].slice(0, n - 1).join("")}…` : s);

/** One task per lead, from the approved strategy: the lead's line and the first milestone. */
export function ceoOperating(request: ScriptRequest, view: PromptView): ScriptReply {
  const { context } = request;
  const history = toolHistory(context.messages);
  const offered = view.tools;
  if (!offered.includes("create_task") || !offered.includes("list_my_tasks"))
    return text("The strategy is approved, but no way to create tasks is available to me in this session.");
  const list = lastList(history);
  if (!list) return call("list_my_tasks", {}, "Checking the tasks that exist before I delegate.");
  const strategy = quotedSection(firstUserText(context), "## The approved strategy");
  const team = view.directory.filter((m) => !m.self);
  const delegated = new Set<string>([
    ...list.created.map((t) => t.assignee ?? ""),
    ...history.filter((h) => h.name === "create_task").map((h) => String(h.arguments["assignee"] ?? "")),
  ]);
  const next = team.find((m) => !delegated.has(m.name));
  if (next && strategy.length > 0) {
    const responsibilities = bullets(strategy, "## Team and first responsibilities");
    const milestones = bullets(strategy, "## First milestones");
    const line =
      responsibilities.find((r) => r.startsWith(`${next.name} (`)) ??
      `${next.name} (${next.role}): leads this area.`;
    const duty = line.slice(line.indexOf("): ") + 3).replace(/\.$/, "") || next.role;
    return call(
      "create_task",
      {
        title: clip(`First deliverable for ${next.name}: ${duty}`, 200),
        description: [
          "From the approved strategy.",
          `Your part: ${line}`,
          ...(milestones.length > 0 ? ["First milestones:", ...milestones.map((m) => `- ${m}`)] : []),
          "Done when: a short written plan for your area with its first deliverable.",
        ].join("\n"),
        assignee: next.name,
      },
      `Delegating the first milestone to ${next.name}.`,
    );
  }
  if (next)
    return text("I could not find the approved strategy in this session, so I am not delegating yet.");
  // Plumbing, not judgement: work handed in with a file is accepted; work handed in with none is
  // sent back asking for it. Each task once in the session.
  const handedIn = list.created.find(
    (t) =>
      t.status === "in_review" &&
      !history.some((h) => h.name === "review_task" && h.arguments["taskId"] === t.id),
  );
  if (handedIn && offered.includes("review_task"))
    return call(
      "review_task",
      handedIn.files.length > 0
        ? { taskId: handedIn.id, decision: "accept" }
        : {
            taskId: handedIn.id,
            decision: "request_changes",
            reasons: "Hand the deliverable in as a file from your workspace, attached with update_task.",
          },
      `Reviewing what ${handedIn.assignee ?? "nobody"} handed in for ${handedIn.id}.`,
    );
  const accepted = new Set(
    history
      .filter((h) => h.name === "review_task" && h.ok && h.arguments["decision"] === "accept")
      .map((h) => String(h.arguments["taskId"])),
  );
  const done = list.created.filter((t) => t.status === "done" || accepted.has(t.id));
  const open = list.created.filter(
    (t) => t.status !== "done" && t.status !== "cancelled" && !accepted.has(t.id),
  );
  const lines = [
    done.length > 0
      ? "Results of the work I delegated:"
      : "Every lead has a task from the approved strategy; I will review the results as they come in.",
    ...done.map((t) => `- ${t.assignee ?? "nobody"}: ${t.title} — done.`),
    ...open.map((t) => `- ${t.assignee ?? "nobody"}: ${t.title} — ${t.status}.`),
  ];
  return text(lines.join("\n"));
}

function startable(t: TaskBrief): boolean {
  return (t.status === "todo" || t.status === "in_progress") && t.openBlockers.length === 0;
}

/** The file a member writes its deliverable into, in its workspace: one per task. */
export const deliverableFile = (taskId: string) => `${taskId}.md`;

function planFor(task: TaskBrief, role: string): string {
  return [
    `Plan for "${clip(task.title, 120)}" from the ${role}:`,
    "- Scope: what this area delivers first, agreed with the approved strategy.",
    "- First step: the smallest version that a pilot customer can use.",
    "- Next: review with the CEO and adjust.",
  ].join("\n");
}

/**
 * A member works each startable task assigned to it: in progress, then its deliverable written as
 * a file in its workspace (when it is offered Pi's write tool) and handed in with that file attached;
 * with no write tool, or a write refused, the deliverable is handed in as text only.
 */
export function memberOperating(request: ScriptRequest, view: PromptView): ScriptReply {
  const history = toolHistory(request.context.messages);
  const self = view.directory.find((m) => m.self);
  const role = self?.role ?? "member of the team";
  if (!view.tools.includes("update_task") || !view.tools.includes("list_my_tasks"))
    return text(`As ${role} at ${view.companyName}, I have no way to see or update tasks in this session.`);
  const list = lastList(history);
  if (!list) return call("list_my_tasks", {}, "Looking at my tasks.");
  const updates = history.filter((h) => h.name === "update_task");
  const tried = (id: string, status: string) =>
    updates.some((u) => u.arguments["taskId"] === id && u.arguments["status"] === status);
  const refused = (id: string) => updates.some((u) => u.arguments["taskId"] === id && !u.ok);
  const writes = (id: string) =>
    history.filter((h) => h.name === "write" && h.arguments["path"] === deliverableFile(id));
  for (const task of list.assigned.filter(startable)) {
    if (refused(task.id)) continue;
    if (task.status === "todo" && !tried(task.id, "in_progress"))
      return call("update_task", { taskId: task.id, status: "in_progress" }, `Starting on ${task.id}.`);
    if (tried(task.id, "done")) continue;
    const file = deliverableFile(task.id);
    if (view.tools.includes("write") && writes(task.id).length === 0)
      return call(
        "write",
        { path: file, content: `${planFor(task, role)}\n` },
        `Writing the deliverable for ${task.id} in my workspace.`,
      );
    const written = writes(task.id).some((w) => w.ok);
    return call(
      "update_task",
      {
        taskId: task.id,
        status: "done",
        deliverable: written ? `${planFor(task, role)}\n\nThe plan is in ${file}.` : planFor(task, role),
        ...(written ? { files: [file] } : {}),
      },
      `Handing in the deliverable for ${task.id}.`,
    );
  }
  const finished = updates
    .filter((u) => u.ok && u.arguments["status"] === "done")
    .map((u) => String(u.arguments["taskId"]));
  const waiting = list.assigned.filter(
    (t) => !startable(t) && t.status !== "done" && t.status !== "cancelled",
  );
  return text(
    [
      finished.length > 0
        ? `Done: ${finished.join(", ")}.`
        : "Nothing of mine could be worked on in this session.",
      ...waiting.map(
        (t) =>
          `Waiting: ${t.id} (${t.status}${t.openBlockers.length ? `, for ${t.openBlockers.map((b) => b.id).join(", ")}` : ""}).`,
      ),
    ].join("\n"),
  );
}
