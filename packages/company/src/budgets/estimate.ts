// The input side of a model call's reservation: its request counted with a real BPE tokenizer
// (o200k_base) before it is sent — the tools, the system prompt and every message's content — plus
// a small per-message overhead. An estimate for the vendors (their tokenizers differ a little), the
// same count the offline model charges; the output side is capped exactly (the call's max tokens).
//
// Counted incrementally: a run's context grows by a turn or two per call, so each message's count
// is kept with the message (and checked against its text, should it change), and the tools' and
// system prompt's with their text. Only what is new is tokenised: a run of n turns costs O(n), not
// the O(n²) of re-tokenising the whole context on every call.
import type { Context } from "@mariozechner/pi-ai";
import { countTokens } from "@cadre/core";

const PER_MESSAGE = 4;

const byMessage = new WeakMap<object, { text: string; tokens: number }>();
/** The last few texts counted whole (tool lists, system prompts): one per live session at most. */
const byText = new Map<string, number>();
const TEXTS_KEPT = 32;

function countText(text: string): number {
  const known = byText.get(text);
  if (known !== undefined) return known;
  const tokens = countTokens(text);
  if (byText.size >= TEXTS_KEPT) byText.delete(byText.keys().next().value as string);
  byText.set(text, tokens);
  return tokens;
}

function countMessage(message: Context["messages"][number]): number {
  const text = typeof message.content === "string" ? message.content : JSON.stringify(message.content);
  const known = byMessage.get(message);
  if (known !== undefined && known.text === text) return known.tokens;
  const tokens = countTokens(text);
  byMessage.set(message, { text, tokens });
  return tokens;
}

export function estimateInputTokens(context: Context): number {
  let tokens = countText(
    JSON.stringify(
      (context.tools ?? []).map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
      })),
    ),
  );
  tokens += countText(context.systemPrompt ?? "");
  for (const message of context.messages) tokens += countMessage(message) + PER_MESSAGE;
  return Math.ceil(tokens * 1.02);
}
