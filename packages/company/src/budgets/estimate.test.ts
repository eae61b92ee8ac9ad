// The reservation's input estimate, counted incrementally as a run's context grows: at every turn it
// equals a count of the whole context from scratch, also when a message already counted changes.
import type { Context } from "@mariozechner/pi-ai";
import { countTokens } from "@cadre/core";
import { describe, expect, it } from "vitest";
import { estimateInputTokens } from "./estimate.js";

/** The whole context counted afresh: what the estimate must always equal. */
function fromScratch(context: Context): number {
  let tokens = countTokens(
    JSON.stringify(
      (context.tools ?? []).map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
      })),
    ),
  );
  tokens += countTokens(context.systemPrompt ?? "");
  for (const m of context.messages)
    tokens += countTokens(typeof m.content === "string" ? m.content : JSON.stringify(m.content)) + 4;
  return Math.ceil(tokens * 1.02);
}

describe("estimateInputTokens", () => {
  it("equals a count from scratch at every turn of a growing context, and follows a changed message", () => {
    const context: Context = {
      systemPrompt: "You are the CEO of Northwind Robotics. Hire a team.",
      messages: [],
      tools: [
        { name: "hire_agent", description: "Hire one agent.", parameters: { type: "object" } as never },
      ],
    };
    for (let turn = 0; turn < 30; turn++) {
      context.messages.push({
        role: "user",
        content: `Turn ${turn}: what next? ${"detail ".repeat(turn)}`,
        timestamp: 0,
      });
      context.messages.push({
        role: "assistant",
        content: [{ type: "text", text: `Answer ${turn} with ${turn * 7} words.` }],
        timestamp: 0,
      } as never);
      expect(estimateInputTokens(context)).toBe(fromScratch(context));
    }
    const first = context.messages[0]!;
    (first as { content: string }).content = "A much longer first message than before, ".repeat(20);
    expect(estimateInputTokens(context)).toBe(fromScratch(context));
    context.systemPrompt = "A different system prompt.";
    context.tools = [];
    expect(estimateInputTokens(context)).toBe(fromScratch(context));
  });
});
