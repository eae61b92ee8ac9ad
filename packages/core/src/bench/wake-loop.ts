// The bare baseline of a wake's start: Pi's own agent loop (pi-agent-core's Agent) with
// the system prompt, model and tool list a Cadre wake sent, on the same stream function, timed
// from its construction to its first model call. Everything Cadre does before that call (state
// reads, the run row and its lease, prompt assembly, the Pi coding agent's session) is the overhead.
import { performance } from "node:perf_hooks";
import { Agent, type AgentTool, type StreamFn } from "@mariozechner/pi-agent-core";
import type { Model, Tool } from "@mariozechner/pi-ai";

export interface BareLoopInput {
  model: Model<any>;
  systemPrompt: string;
  tools: readonly Tool[];
  prompt: string;
  /** A fresh stream function (the same kind the wake used); called once, then the loop is aborted. */
  streamFn: StreamFn;
}

/** Milliseconds from a bare Pi loop's construction to its first model call. */
export async function bareLoopToFirstCall(input: BareLoopInput): Promise<number> {
  const start = performance.now();
  let first: number | undefined;
  let agent: Agent | undefined;
  const called = new Promise<void>((resolve) => {
    const streamFn: StreamFn = (...args) => {
      first ??= performance.now();
      resolve();
      return input.streamFn(...args);
    };
    agent = new Agent({
      initialState: {
        systemPrompt: input.systemPrompt,
        model: input.model,
        thinkingLevel: "off",
        // Never executed: the loop is stopped at its first model call.
        tools: input.tools.map((t): AgentTool => ({
          ...t,
          label: t.name,
          execute: () => Promise.reject(new Error("not run in the baseline")),
        })),
      },
      streamFn,
      getApiKey: () => "offline",
    });
  });
  const running = agent!.prompt(input.prompt).catch(() => {});
  await called;
  agent!.abort();
  await running;
  return (first as number) - start;
}
