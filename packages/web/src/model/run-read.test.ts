// The run as an operator reads it: the outcome in one line (a spend-control stop named once, its
// CLI hint dropped), the harness's bookkeeping left out unless asked for, and tool calls told by kind.
import { describe, expect, it } from "vitest";
import type { AgentEvent, Run } from "../api/types.js";
import { foldRun } from "./run-fold.js";
import { operatorItems, runOutcome, stopOf, triggerWords } from "./run-read.js";
import { baseToolName, toolCard } from "./tool-card.js";

const seqd = (events: AgentEvent[]) => events.map((event, seq) => ({ seq, event }));

const HIRE_INPUT = {
  name: "CTO",
  role: "Chief Technology Officer",
  description: "Owns the technology.",
  connectorId: "offline",
  model: "offline-scripted-1",
};

const CALL: AgentEvent[] = [
  { type: "turn_start", turn: 1 },
  { type: "text_end", index: 0, text: "Hiring a CTO." },
  { type: "toolcall_end", index: 1, id: "c1", name: "mcp__cadre__hire_agent", input: HIRE_INPUT },
  { type: "usage", usage: { input: 40, output: 20, cacheRead: 0, cacheWrite: 900 } },
  {
    type: "tool_result",
    toolUseId: "c1",
    name: "mcp__cadre__hire_agent",
    isError: false,
    content: [{ type: "text", text: '{"agentId":"agt_1","name":"CTO","role":"Chief Technology Officer"}' }],
  },
  { type: "turn_end", turn: 1, stopReason: "tool_use" },
];

/** The shape spend control leaves when it refuses the next model call (the refused turn, its errors). */
const CAP =
  "the run reached its cap of 2 model calls; raise it with `cadre budgets set --company c1 --run-model-calls N`";
const STOPPED: AgentEvent[] = [
  ...CALL,
  { type: "turn_start", turn: 2 },
  { type: "usage", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
  { type: "error", message: "the model call was not sent", code: "provider_error" },
  { type: "turn_end", turn: 2, stopReason: "error" },
  { type: "recovery", action: "fail-closed", reason: "nothing to replay" },
  { type: "error", message: CAP, code: "run_cap" },
  { type: "terminal", status: "failed", reason: `run_cap: ${CAP}` },
];

describe("runOutcome", () => {
  it("names a run-cap stop once, as a stop, without the terminal's prefix or the CLI hint", () => {
    const fold = foldRun(seqd(STOPPED));
    const outcome = runOutcome(undefined, fold.items, fold.state);
    expect(outcome).toMatchObject({ stop: "run_cap", tone: "warn" });
    expect(outcome.text).toBe("Stopped by the run's cap: the run reached its cap of 2 model calls");
  });

  it("takes the stop from the run row when it has one (a budget stop)", () => {
    const fold = foldRun(seqd([...CALL, { type: "terminal", status: "failed", reason: "no room" }]));
    const run = { stopReason: "budget", error: "no room" } as Run;
    expect(stopOf(run, fold.items)).toBe("budget");
    expect(runOutcome(run, fold.items, fold.state).text).toBe("Stopped by the budget: no room");
  });

  it("says done, failed with its reason, or running", () => {
    const done = foldRun(seqd([...CALL, { type: "terminal", status: "done" }]));
    expect(runOutcome(undefined, done.items, done.state)).toMatchObject({ text: "Done", tone: "ok" });
    const failed = foldRun(seqd([...CALL, { type: "terminal", status: "failed", reason: "provider down" }]));
    expect(runOutcome(undefined, failed.items, failed.state).text).toBe("Failed: provider down");
    expect(stopOf(undefined, failed.items)).toBeUndefined();
    const running = foldRun(seqd(CALL));
    expect(runOutcome(undefined, running.items, running.state).text).toBe("Running");
  });
});

describe("operatorItems", () => {
  it("keeps what the agent said and did and the end; leaves model-call rows, usage and policy lines out", () => {
    const fold = foldRun(
      seqd([
        ...CALL,
        { type: "recovery", action: "fail-closed", reason: "x" },
        { type: "terminal", status: "done" },
      ]),
    );
    expect(operatorItems(fold.items, undefined, false).map((i) => i.kind)).toEqual([
      "text",
      "tool",
      "terminal",
    ]);
    expect(operatorItems(fold.items, undefined, true)).toEqual(fold.items);
  });

  it("leaves out the stop's repeats (its errors after the refused call) but not an earlier error", () => {
    const early: AgentEvent = { type: "error", message: "a tool hiccup", code: "x" };
    const fold = foldRun(seqd([early, ...STOPPED]));
    const shown = operatorItems(fold.items, stopOf(undefined, fold.items), false);
    expect(shown.filter((i) => i.kind === "error").map((i) => (i as { message: string }).message)).toEqual([
      "a tool hiccup",
    ]);
    expect(shown.at(-1)?.kind).toBe("terminal");
  });
});

describe("toolCard", () => {
  const tool = (events: AgentEvent[]) => {
    const item = foldRun(seqd(events)).items.find((i) => i.kind === "tool");
    if (item?.kind !== "tool") throw new Error("no tool row");
    return item;
  };
  const result = (name: string, input: unknown, text: string, isError = false): AgentEvent[] => [
    { type: "toolcall_end", index: 0, id: "t", name, input },
    { type: "tool_result", toolUseId: "t", name, isError, content: [{ type: "text", text }] },
  ];

  it("takes a harness's MCP prefix off the company tool's name", () => {
    expect(baseToolName("mcp__cadre__file_approval")).toBe("file_approval");
    expect(baseToolName("hire_agent")).toBe("hire_agent");
  });

  it("reads a hire as a hire, with the agent made or the approval filed for it", () => {
    expect(toolCard(tool(CALL))).toEqual({ kind: "hire", ...HIRE_INPUT, agentId: "agt_1" });
    const filed = toolCard(
      tool(result("hire_agent", HIRE_INPUT, '{"approvalId":"apr_9","status":"pending"}')),
    );
    expect(filed).toMatchObject({ kind: "hire", approvalId: "apr_9" });
    expect(filed).not.toHaveProperty("agentId");
  });

  it("reads a filed strategy with its approval, and a failed filing without one", () => {
    const input = { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan\n\n- ship" };
    expect(
      toolCard(tool(result("file_approval", input, '{"approvalId":"apr_1","type":"x","status":"pending"}'))),
    ).toEqual({
      kind: "approval",
      ...input,
      approvalId: "apr_1",
      status: "pending",
    });
    const refused = toolCard(tool(result("file_approval", input, '{"approvalId":"apr_1"}', true)));
    expect(refused).toMatchObject({ kind: "approval" });
    expect(refused).not.toHaveProperty("approvalId");
  });

  it("reads a reply to the operator and a task change; anything else is a plain call", () => {
    expect(toolCard(tool(result("reply_to_operator", { text: "On it." }, '{"messageId":"msg_1"}')))).toEqual({
      kind: "reply",
      text: "On it.",
      messageId: "msg_1",
    });
    const task = toolCard(
      tool(result("create_task", { title: "Spec" }, '{"taskId":"task_1","status":"todo","assignee":"CTO"}')),
    );
    expect(task).toMatchObject({ kind: "task", taskId: "task_1", title: "Spec" });
    expect(toolCard(tool(result("bash", { cmd: "ls" }, "a\nb")))).toEqual({ kind: "other" });
    // The right name with the wrong shape is not dressed up as a hire.
    expect(toolCard(tool(result("hire_agent", {}, "error")))).toEqual({ kind: "other" });
  });
});

describe("triggerWords", () => {
  it("words every known trigger and spaces an unknown one", () => {
    expect(triggerWords("task_assigned")).toBe("a task was assigned to it");
    expect(triggerWords("new_kind")).toBe("new kind");
  });
});
