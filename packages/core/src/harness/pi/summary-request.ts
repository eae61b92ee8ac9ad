// Pi's own compaction-summary request, recognised by its documented shape. Pi (pi-coding-agent
// 0.73.1, core/compaction/compaction.ts: generateSummary, generateTurnPrefixSummary) makes it with
// completeSimple(model, { systemPrompt: SUMMARIZATION_SYSTEM_PROMPT, messages: [ONE user message] })
// and no tools; the user text is "<conversation>\n…\n</conversation>\n\n", optionally a
// "<previous-summary>" block, then the instructions (the initial ones, the update ones, or the
// split-turn prefix ones). The session routes it through the same provider boundary as its agent
// calls; this module is how the offline model and the rehearsal faults tell the two apart.
import type { Context } from "@mariozechner/pi-ai";

/** How SUMMARIZATION_SYSTEM_PROMPT begins (the constant itself is not exported by the SDK). */
export const PI_SUMMARY_SYSTEM_PREFIX = "You are a context summarization assistant";
const CONVERSATION_OPEN = "<conversation>\n";
const CONVERSATION_CLOSE = "\n</conversation>";
const PREVIOUS_OPEN = "<previous-summary>\n";
const PREVIOUS_CLOSE = "\n</previous-summary>";
/** The split-turn variant's instructions say this (TURN_PREFIX_SUMMARIZATION_PROMPT). */
const TURN_PREFIX_MARKER = "This is the PREFIX of a turn";

export type SummaryRequestKind = "history" | "update" | "turn-prefix";

export interface SummaryRequest {
  kind: SummaryRequestKind;
  /** The serialised conversation (`[User]: …`, `[Assistant]: …`, `[Assistant tool calls]: …`, `[Tool result]: …`). */
  conversation: string;
  /** The summary being updated, for kind "update". */
  previousSummary?: string;
}

function onlyText(context: Context): string | undefined {
  if (context.messages.length !== 1) return undefined;
  const [message] = context.messages;
  if (!message || message.role !== "user") return undefined;
  if (typeof message.content === "string") return message.content;
  let text = "";
  for (const block of message.content) {
    if (block.type !== "text") return undefined;
    text += block.text;
  }
  return text;
}

/** The request as Pi's compaction sends it, or undefined for any other request (an agent call). */
export function readSummaryRequest(context: Context): SummaryRequest | undefined {
  if (!(context.systemPrompt ?? "").startsWith(PI_SUMMARY_SYSTEM_PREFIX)) return undefined;
  if ((context.tools?.length ?? 0) > 0) return undefined;
  const text = onlyText(context);
  if (text === undefined || !text.startsWith(CONVERSATION_OPEN)) return undefined;
  const close = text.indexOf(CONVERSATION_CLOSE);
  if (close < 0) return undefined;
  const conversation = text.slice(CONVERSATION_OPEN.length, close);
  const rest = text.slice(close + CONVERSATION_CLOSE.length);
  if (rest.includes(TURN_PREFIX_MARKER)) return { kind: "turn-prefix", conversation };
  const open = rest.indexOf(PREVIOUS_OPEN);
  const end = open < 0 ? -1 : rest.indexOf(PREVIOUS_CLOSE, open);
  if (open >= 0 && end > open)
    return { kind: "update", conversation, previousSummary: rest.slice(open + PREVIOUS_OPEN.length, end) };
  return { kind: "history", conversation };
}

export function isSummaryRequest(context: Context): boolean {
  return readSummaryRequest(context) !== undefined;
}
