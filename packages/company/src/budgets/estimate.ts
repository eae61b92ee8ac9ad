// The input side of a model call's reservation: its request counted with a real BPE tokenizer
// (o200k_base) before it is sent — the tools, the system prompt and every message's content — plus
// a small per-message overhead. An estimate for the vendors (their tokenizers differ a little), the
// same count the offline model charges; the output side is capped exactly (the call's max tokens).
import type { Context } from "@mariozechner/pi-ai";
import { countTokens } from "@cadre/core";

const PER_MESSAGE = 4;

export function estimateInputTokens(context: Context): number {
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
  for (const message of context.messages) {
    const content = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
    tokens += countTokens(content) + PER_MESSAGE;
  }
  return Math.ceil(tokens * 1.02);
}
