// For tests of a member working its task on an `openai-compatible` connector pointed at a
// @cadre/standin server (OFFLINE: scripted answers on the real Chat Completions wire): it works the
// task its first turn names — in progress, its deliverable written as a file in its workspace, handed
// in with the file attached, as a member whose work its reviewer accepts — and, while holding, leaves
// the call after its first tool result hanging, as a provider that stopped answering would, so that a
// test can kill the run mid-task.
import { type Policy, reply, startStandin, toolExchanges } from "@cadre/standin";

export { declareStandinModel, STANDIN_MODEL } from "./standin-model.js";

export interface TaskStandin {
  /** The connector's `config.baseUrl`. */
  baseUrl: string;
  /** Resolves once a request has been left hanging (the held one). */
  held(): Promise<void>;
  /** From now on no request is left hanging. */
  release(): void;
  close(): Promise<void>;
}

/** The task id the conversation's first user turn names ("none" when it names none). */
function taskOf(request: Parameters<Policy>[0]): string {
  const first = request.messages.find((m) => m.role === "user");
  const text = (first?.content ?? []).map((b) => (b.type === "text" ? b.text : JSON.stringify(b))).join("\n");
  return /task_[0-9a-f]{16}/.exec(text)?.[0] ?? "none";
}

export async function startTaskStandin(): Promise<TaskStandin> {
  let holding = true;
  let heldResolve: () => void = () => {};
  const held = new Promise<void>((resolve) => (heldResolve = resolve));
  const policy: Policy = (request) => {
    const taskId = taskOf(request);
    const results = toolExchanges(request).filter((x) => x.result !== undefined).length;
    if (results === 1 && holding) {
      heldResolve();
      return reply.hang();
    }
    if (results === 0) return reply.toolCall("update_task", { taskId, status: "in_progress" });
    if (results === 1)
      return reply.toolCall("write", { path: `${taskId}.md`, content: "Finished after the interruption.\n" });
    if (results === 2)
      return reply.toolCall("update_task", {
        taskId,
        status: "done",
        deliverable: "Finished after the interruption.",
        files: [`${taskId}.md`],
      });
    return reply.text("Done.");
  };
  const server = await startStandin({ policy });
  return {
    baseUrl: server.openaiBaseUrl,
    held: () => held,
    release: () => (holding = false),
    close: () => server.close(),
  };
}
