import { describe, expect, it } from "vitest";
import { buildHandoff } from "../context/index.js";
import { EventTranscript } from "./event-transcript.js";

describe("EventTranscript (handoff items for Claude Code and Codex)", () => {
  it("MC-9: a successful tool call is a decision with its own input; a tool_result body never reaches the handoff", () => {
    const t = new EventTranscript();
    t.prompt("Build the team");
    t.record({ type: "text_end", index: 0, text: "Hiring a CTO." });
    t.record({
      type: "toolcall_end",
      index: 1,
      id: "toolu_1",
      name: "mcp__cadre__hire_agent",
      input: { name: "Ada", role: "CTO" },
    });
    t.record({
      type: "tool_use",
      id: "toolu_1",
      name: "mcp__cadre__hire_agent",
      input: { name: "Ada", role: "CTO" },
    });
    t.record({
      type: "tool_result",
      toolUseId: "toolu_1",
      name: "mcp__cadre__hire_agent",
      isError: false,
      content: [{ type: "text", text: "SECRET-BODY agent_42 hired" }],
    });
    t.record({
      type: "toolcall_end",
      index: 2,
      id: "toolu_2",
      name: "mcp__cadre__hire_agent",
      input: { name: "Ada" },
    });
    t.record({
      type: "tool_result",
      toolUseId: "toolu_2",
      name: "mcp__cadre__hire_agent",
      isError: true,
      content: [{ type: "text", text: "SECRET-REFUSAL" }],
    });
    const handoff = buildHandoff(t.items());
    expect(handoff).toContain("## Task\nBuild the team");
    expect(handoff).toContain('- mcp__cadre__hire_agent succeeded: {"name":"Ada","role":"CTO"}');
    expect(handoff).not.toContain("SECRET");
    // toolcall_end and tool_use of one call are one call; the refused call is no decision.
    expect(t.items().filter((i) => i.kind === "tool_call")).toHaveLength(2);
    expect(t.items().filter((i) => i.kind === "decision")).toHaveLength(1);
  });

  it("MC-9: after a rollover the items are bounded, and the task and decisions survive", () => {
    const t = new EventTranscript();
    t.prompt("Build the team");
    t.record({ type: "toolcall_end", index: 0, id: "a", name: "hire", input: { n: 1 } });
    t.record({ type: "tool_result", toolUseId: "a", name: "hire", isError: false, content: [] });
    for (let i = 0; i < 200; i++) t.record({ type: "text_end", index: 0, text: `gist ${i}` });
    t.rebase();
    expect(t.items()[0]).toEqual({ kind: "task", text: "Build the team" });
    expect(t.items().some((i) => i.kind === "decision")).toBe(true);
    expect(t.items().length).toBeLessThan(100);
  });
});
