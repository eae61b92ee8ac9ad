import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import { buildHandoff } from "../../context/index.js";
import { BOOTSTRAP_SEPARATOR, boundItems, transcriptItems } from "./transcript.js";

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

describe("Pi transcript items for the handoff (MC-9)", () => {
  const transcript: AgentMessage[] = [
    user("Build the team."),
    call("c1", "hire_agent", { name: "CTO", department: "engineering" }),
    result("c1", "hire_agent", `{"agentId":"agt_1"} ${SECRET}`),
    call("c2", "hire_agent", { name: "CTO", department: "engineering" }),
    result("c2", "hire_agent", `refused: name taken ${SECRET}`, true),
    assistant([], "error"),
  ];

  it("MC-9 never carries a tool_result body; a successful call becomes a decision with its own input", () => {
    const items = transcriptItems(transcript);
    const handoff = buildHandoff(items);
    expect(handoff).not.toContain(SECRET);
    expect(JSON.stringify(items)).not.toContain(SECRET);
    expect(handoff).toContain(`- hire_agent succeeded: {"name":"CTO","department":"engineering"}`);
    // The refused call is no decision: only its outcome survives, as a gist.
    expect(items.filter((i) => i.kind === "decision")).toHaveLength(1);
    expect(handoff).toContain("tool hire_agent → error");
  });

  it("MC-9 a fresh window's handoff is not read as a prompt: its items are carried, the prompt after it stays a prompt", () => {
    const first = transcriptItems(transcript.slice(0, 3));
    const handoff = buildHandoff(first);
    const fresh: AgentMessage[] = [
      user(`${handoff}${BOOTSTRAP_SEPARATOR}Now file the strategy.`),
      call("c3", "file_approval", { type: "approve_ceo_strategy" }),
      result("c3", "file_approval", SECRET),
    ];
    const items = boundItems([...boundItems(first), ...transcriptItems(fresh, handoff)]);
    const second = buildHandoff(items);
    expect(second).toContain("- hire_agent succeeded:");
    expect(second).toContain("- file_approval succeeded:");
    expect(second).not.toContain(SECRET);
    expect(items.filter((i) => i.kind === "user").map((i) => (i as { text: string }).text)).toEqual([
      "Build the team.",
      "Now file the strategy.",
    ]);
    // Bounded: the task first — the latest request, not the session's first — every decision kept.
    expect(items[0]).toEqual({ kind: "task", text: "Now file the strategy." });
  });

  it("after later wakes the handoff's task is the latest request, never the session's stale first cue", () => {
    const wakes: AgentMessage[] = [
      user("You are the CEO. Your team is currently empty. Review your instructions, then take action."),
      user("You are the CEO. Work you delegated has been completed. Your strategy is approved."),
    ];
    const handoff = buildHandoff(boundItems(transcriptItems(wakes)));
    expect(handoff).toContain("## Task\nYou are the CEO. Work you delegated has been completed.");
    expect(handoff).not.toContain("## Task\nYou are the CEO. Your team is currently empty.");
  });
});
