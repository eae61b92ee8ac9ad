// The deterministic scripted model behind the offline connector and the tests. It is a real
// pi-ai stream function: Pi's agent loop calls it exactly as it would call a vendor, receives the
// same event protocol, executes the tools it asks for and feeds the results back. What it says is
// computed by a script from the request (system prompt, tools offered, transcript), never canned.
// Pi's own compaction-summary request (recognised by its documented shape, summary-request.ts) is
// answered without the script: an extractive, deterministic digest of the serialised conversation —
// plumbing that lets the real Pi SDK compact offline, not a judgement of what matters.
import type {
  AssistantMessage,
  AssistantMessageEventStream,
  Context,
  Model,
  SimpleStreamOptions,
  ToolCall,
} from "@mariozechner/pi-ai";
import { createAssistantMessageEventStream } from "@mariozechner/pi-ai";
import { countTokens } from "../tokens.js";
import { OFFLINE_API, OFFLINE_PROVIDER } from "../harness/pi/pi-model.js";
import { readSummaryRequest, type SummaryRequest } from "../harness/pi/summary-request.js";
import { type Random, seededRandom } from "./seeded-random.js";

export type ScriptBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "toolCall"; name: string; arguments: Record<string, unknown> };

export type ScriptReply =
  | { content: ScriptBlock[] }
  /** A provider failure, reported the way pi-ai reports one (stopReason "error"). */
  | { error: string; partial?: ScriptBlock[] };

export interface ScriptRequest {
  context: Context;
  /** 0 for the first model call of the session (Pi's summary requests are not counted). */
  callIndex: number;
  /** Advances with every call of the session. */
  random: Random;
  /** The session's seed, for decisions that must stay the same across calls (e.g. a team size). */
  seed: number | string;
}

export type Script = (request: ScriptRequest) => ScriptReply;

export interface ScriptedModelOptions {
  script: Script;
  seed: number | string;
  /** Characters per streamed delta. Fixed, so event streams are reproducible. */
  chunkSize?: number;
}

/**
 * Serialises a request the way a wire request is laid out (tools, then system, then messages), so
 * the prompt-cache simulation below sees the same prefix a vendor would.
 */
export function serialiseRequest(context: Context): string[] {
  const parts: string[] = [];
  parts.push(
    `tools:${JSON.stringify((context.tools ?? []).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })))}`,
  );
  parts.push(`system:${context.systemPrompt ?? ""}`);
  for (const message of context.messages) {
    if (message.role === "user")
      parts.push(
        `user:${typeof message.content === "string" ? message.content : JSON.stringify(message.content)}`,
      );
    else if (message.role === "assistant") parts.push(`assistant:${JSON.stringify(message.content)}`);
    else
      parts.push(`tool_result:${message.toolCallId}:${message.isError}:${JSON.stringify(message.content)}`);
  }
  return parts;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * Creates a stream function for one session. The prompt-cache simulation is per instance: the
 * longest prefix shared with the previous request is read from cache, the rest of the history is
 * written to it, and the newest message is uncached input.
 */
export function createScriptedStreamFn(options: ScriptedModelOptions) {
  const random = seededRandom(options.seed);
  const chunkSize = options.chunkSize ?? 24;
  let callIndex = 0;
  let previousPrefix = "";
  // Summary requests have their own prefix (another system prompt): a vendor caches both.
  let previousSummaryPrefix = "";
  let idCounter = 0;
  const seedTag =
    typeof options.seed === "number" ? options.seed.toString(36) : String(options.seed).slice(0, 12);

  return function streamScripted(
    model: Model<any>,
    context: Context,
    streamOptions?: SimpleStreamOptions,
  ): AssistantMessageEventStream {
    const stream = createAssistantMessageEventStream();
    const summary = readSummaryRequest(context);
    // A summary request is not a turn of the script: it neither advances the call index nor the randomness.
    const index = summary ? callIndex : callIndex++;
    const parts = serialiseRequest(context);
    const last = parts.pop() ?? "";
    const cacheable = parts.join("\n");
    const shared = commonPrefix(summary ? previousSummaryPrefix : previousPrefix, cacheable);
    if (summary) previousSummaryPrefix = cacheable;
    else previousPrefix = cacheable;
    const usage = {
      input: countTokens(last),
      output: 0,
      cacheRead: shared > 0 ? countTokens(cacheable.slice(0, shared)) : 0,
      cacheWrite: countTokens(cacheable.slice(shared)),
      totalTokens: 0,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    };
    let reply: ScriptReply;
    try {
      reply = summary
        ? { content: [{ type: "text", text: scriptedSummary(summary, streamOptions?.maxTokens) }] }
        : options.script({ context, callIndex: index, random, seed: options.seed });
    } catch (error) {
      reply = { error: `offline script failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    const blocks = "content" in reply ? reply.content : (reply.partial ?? []);
    const content: AssistantMessage["content"] = blocks.map((b) =>
      b.type === "toolCall"
        ? ({
            type: "toolCall",
            id: `call_${seedTag}_${index}_${idCounter++}`,
            name: b.name,
            arguments: b.arguments,
          } satisfies ToolCall)
        : b,
    );
    usage.output = countTokens(
      content
        .map((b) =>
          b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : JSON.stringify(b.arguments),
        )
        .join(""),
    );
    usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    const message: AssistantMessage = {
      role: "assistant",
      content,
      api: OFFLINE_API,
      provider: OFFLINE_PROVIDER,
      model: model.id,
      usage,
      stopReason:
        "error" in reply ? "error" : content.some((b) => b.type === "toolCall") ? "toolUse" : "stop",
      ...("error" in reply ? { errorMessage: reply.error } : {}),
      timestamp: Date.now(),
    };
    queueMicrotask(() => emitMessage(stream, message, chunkSize, streamOptions?.signal));
    return stream;
  };
}

function emitMessage(
  stream: AssistantMessageEventStream,
  message: AssistantMessage,
  chunkSize: number,
  signal: AbortSignal | undefined,
): void {
  const partial: AssistantMessage = { ...message, content: [] };
  const aborted = () => {
    const m: AssistantMessage = { ...partial, stopReason: "aborted", errorMessage: "Request was aborted" };
    stream.push({ type: "error", reason: "aborted", error: m });
    stream.end(m);
  };
  if (signal?.aborted) return aborted();
  stream.push({ type: "start", partial });
  message.content.forEach((block, i) => {
    if (block.type === "text") {
      partial.content.push({ type: "text", text: "" });
      stream.push({ type: "text_start", contentIndex: i, partial });
      for (let at = 0; at < block.text.length; at += chunkSize) {
        const delta = block.text.slice(at, at + chunkSize);
        (partial.content[i] as { text: string }).text += delta;
        stream.push({ type: "text_delta", contentIndex: i, delta, partial });
      }
      stream.push({ type: "text_end", contentIndex: i, content: block.text, partial });
    } else if (block.type === "thinking") {
      partial.content.push({ type: "thinking", thinking: "" });
      stream.push({ type: "thinking_start", contentIndex: i, partial });
      for (let at = 0; at < block.thinking.length; at += chunkSize) {
        const delta = block.thinking.slice(at, at + chunkSize);
        (partial.content[i] as { thinking: string }).thinking += delta;
        stream.push({ type: "thinking_delta", contentIndex: i, delta, partial });
      }
      stream.push({ type: "thinking_end", contentIndex: i, content: block.thinking, partial });
    } else {
      partial.content.push({ ...block, arguments: {} });
      stream.push({ type: "toolcall_start", contentIndex: i, partial });
      const json = JSON.stringify(block.arguments);
      for (let at = 0; at < json.length; at += chunkSize)
        stream.push({
          type: "toolcall_delta",
          contentIndex: i,
          delta: json.slice(at, at + chunkSize),
          partial,
        });
      partial.content[i] = block;
      stream.push({ type: "toolcall_end", contentIndex: i, toolCall: block, partial });
    }
  });
  if (message.stopReason === "error") {
    stream.push({ type: "error", reason: "error", error: message });
    stream.end(message);
    return;
  }
  stream.push({ type: "done", reason: message.stopReason as "stop" | "toolUse", message });
  stream.end(message);
}

const SUMMARY_LINE_CHARS = 300;

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > SUMMARY_LINE_CHARS ? `${line.slice(0, SUMMARY_LINE_CHARS)}…` : line;
}

/** The lines of a markdown section ("## Title") of an earlier summary. */
function sectionLines(summary: string, title: string): string[] {
  const start = summary.indexOf(`## ${title}\n`);
  if (start < 0) return [];
  const rest = summary.slice(start + title.length + 4);
  const end = rest.indexOf("\n## ");
  return (end < 0 ? rest : rest.slice(0, end)).split("\n").filter((l) => l.trim() !== "");
}

/**
 * The offline model's answer to Pi's summary request: the first user request as the goal, every
 * tool call seen (the previous summary's first, on an update) as progress, kept within the token
 * budget Pi asked for. Extractive and deterministic: the same request, the same summary.
 */
export function scriptedSummary(request: SummaryRequest, maxTokens?: number): string {
  const blocks = request.conversation.split("\n\n");
  const firstUser = blocks.find((b) => b.startsWith("[User]: "));
  const previousGoal = request.previousSummary ? sectionLines(request.previousSummary, "Goal") : [];
  const goal = previousGoal[0] ?? (firstUser ? firstLine(firstUser.slice(8)) : "(no request recorded)");
  const progress = request.previousSummary ? sectionLines(request.previousSummary, "Progress") : [];
  for (const block of blocks)
    if (block.startsWith("[Assistant tool calls]: ")) progress.push(`- ${firstLine(block.slice(24))}`);
  const title = request.kind === "turn-prefix" ? "Original Request" : "Goal";
  const head = `## ${title}\n${goal}\n\n## Progress\n`;
  const tail = "\n\n## Next Steps\n- continue from the latest request";
  // Pi's budget is in tokens; o200k averages well over three characters per token of such text.
  const budget = Math.max(200, (maxTokens ?? 2_000) * 3) - head.length - tail.length;
  const kept: string[] = [];
  let used = 0;
  for (let i = progress.length - 1; i >= 0; i--) {
    const line = progress[i] as string;
    if (used + line.length + 1 > budget) break;
    kept.unshift(line);
    used += line.length + 1;
  }
  return `${head}${kept.length > 0 ? kept.join("\n") : "- nothing done yet"}${tail}`;
}
