import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { buildHandoff } from "../../context/index.js";
import { compactionCut, PiWindow } from "./context-window.js";

const ZERO = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const user = (text: string): UserMessage => ({ role: "user", content: text, timestamp: 0 });
const assistant = (
  content: AssistantMessage["content"],
  stopReason: AssistantMessage["stopReason"] = "toolUse",
): AssistantMessage => ({
  role: "assistant",
  content,
  api: "x",
  provider: "x",
  model: "x",
  usage: ZERO,
  stopReason,
  timestamp: 0,
});
const call = (id: string, name: string, args: Record<string, unknown>) =>
  assistant([
    { type: "text", text: `calling ${name}` },
    { type: "toolCall", id, name, arguments: args },
  ]);
const result = (id: string, name: string, body: string, isError = false): ToolResultMessage => ({
  role: "toolResult",
  toolCallId: id,
  toolName: name,
  content: [{ type: "text", text: body }],
  isError,
  timestamp: 0,
});

const SECRET = "TOOL-OUTPUT-BODY-7f3a";

describe("Pi window: transcript items for the handoff (MC-9)", () => {
  const transcript: AgentMessage[] = [
    user("Build the team."),
    call("c1", "hire_agent", { name: "CTO", department: "engineering" }),
    result("c1", "hire_agent", `{"agentId":"agt_1"} ${SECRET}`),
    call("c2", "hire_agent", { name: "CTO", department: "engineering" }),
    result("c2", "hire_agent", `refused: name taken ${SECRET}`, true),
    assistant([], "error"),
  ];

  it("MC-9 never carries a tool_result body; a successful call becomes a decision with its own input", () => {
    const window = new PiWindow();
    const items = window.items(transcript);
    const handoff = buildHandoff(items);
    expect(handoff).not.toContain(SECRET);
    expect(JSON.stringify(items)).not.toContain(SECRET);
    expect(handoff).toContain(`- hire_agent succeeded: {"name":"CTO","department":"engineering"}`);
    // The refused call is no decision: only its outcome survives, as a gist.
    expect(items.filter((i) => i.kind === "decision")).toHaveLength(1);
    expect(handoff).toContain("tool hire_agent → error");
  });

  it("MC-9 a bootstrap carries its decisions into the next rebase (nothing done is forgotten)", () => {
    const window = new PiWindow();
    const first = window.items(transcript.slice(0, 3));
    const loop = [...transcript.slice(0, 3)];
    const bootstrap = window.rebase(loop.length, buildHandoff(first), first);
    loop.push(
      call("c3", "file_approval", { type: "approve_ceo_strategy" }),
      result("c3", "file_approval", SECRET),
    );
    const view = window.view(loop);
    expect(view[0]).toBe(bootstrap);
    expect(view).toHaveLength(3);
    const second = buildHandoff(window.items(view));
    expect(second).toContain("- hire_agent succeeded:");
    expect(second).toContain("- file_approval succeeded:");
    expect(second).not.toContain(SECRET);
    // The run ends: the window becomes the transcript.
    expect(window.materialize(loop)).toEqual(view);
    expect(window.view(loop)).toBe(loop);
  });
});

describe("compactionCut: where Pi's native compaction may cut (MC-8)", () => {
  const isBoot = (boots: AgentMessage[]) => (m: AgentMessage) => boots.includes(m);
  it.each([
    ["only the pending user message: nothing to compact", [user("a")], undefined],
    [
      "a tool exchange after the first prompt: keeps the exchange, compacts the prompt",
      [user("a"), call("1", "t", {}), result("1", "t", "r")],
      1,
    ],
    [
      "a new prompt after a finished exchange: keeps the prompt",
      [
        user("a"),
        call("1", "t", {}),
        result("1", "t", "r"),
        assistant([{ type: "text", text: "ok" }], "stop"),
        user("b"),
      ],
      4,
    ],
    [
      "never parts a tool result from its call",
      [user("a"), call("1", "t", {}), result("1", "t", "r"), call("2", "t", {}), result("2", "t", "r")],
      3,
    ],
  ] as const)("%s", (_name, view, cut) => {
    expect(compactionCut(view as unknown as AgentMessage[], isBoot([]))).toBe(cut);
  });

  it("a window holding only a bootstrap before the latest exchange has nothing new to compact", () => {
    const boot = user("# Handoff");
    expect(compactionCut([boot, call("1", "t", {}), result("1", "t", "r")], isBoot([boot]))).toBeUndefined();
    expect(compactionCut([boot, user("x"), call("1", "t", {}), result("1", "t", "r")], isBoot([boot]))).toBe(
      2,
    );
  });
});
