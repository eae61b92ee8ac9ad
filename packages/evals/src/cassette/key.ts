// The key of a model request: a SHA-256 over its normalised form — the connector kind, the model
// id, the system prompt, the tool schemas, the MCP server config (none on a Pi-routed call) and the
// messages. What varies between two runs of the same conversation (timestamps, usage, vendor
// response ids, tool-call ids, generated record ids, loopback ports) is left out or replaced, so a
// replay finds the answer recorded for it. The salt separates samples: sample 3 replays sample 3's
// answers, not sample 0's. Each part is hashed on its own too (parts.ts): a miss names the part
// that differs from the nearest recording.
import type { PiContext } from "@cadre/core";
import { hashOf } from "../data/hash.js";
import { ID, LOOPBACK, normaliseArgs } from "../trace/normalise.js";

type Message = PiContext["messages"][number];

export interface NormalisedRequest {
  salt: string;
  /** The connector kind the call went through (offline, anthropic, openai, openai-compatible). */
  kind: string;
  model: string;
  system: string;
  tools: Array<{ name: string; description: string; parameters: unknown }>;
  /** MCP servers the model's tools came from: none on a Pi-routed call (its tools run in process). */
  mcp: null;
  messages: unknown[];
}

/** Record timestamps a tool result may echo (e.g. an HTTP response's createdAt). */
const TIMESTAMP = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})\b/g;
export const untimed = (text: string) => text.replace(TIMESTAMP, "<time>");

function normaliseMessage(message: Message, callIds: Map<string, string>): unknown {
  const callId = (id: string) => {
    if (!callIds.has(id)) callIds.set(id, `call#${callIds.size}`);
    return callIds.get(id);
  };
  switch (message.role) {
    case "user":
      return {
        role: "user",
        content:
          typeof message.content === "string"
            ? message.content
            : message.content.map((c) =>
                c.type === "text"
                  ? { type: "text", text: c.text }
                  : { type: "image", sha256: hashOf(c.data) },
              ),
      };
    case "assistant":
      return {
        role: "assistant",
        content: message.content.map((b) =>
          b.type === "text"
            ? { type: "text", text: b.text }
            : b.type === "thinking"
              ? { type: "thinking", thinking: b.thinking }
              : { type: "toolCall", id: callId(b.id), name: b.name, arguments: b.arguments },
        ),
      };
    case "toolResult":
      return {
        role: "toolResult",
        toolCallId: callId(message.toolCallId),
        toolName: message.toolName,
        isError: message.isError,
        content: message.content.map((c) =>
          c.type === "text"
            ? { type: "text", text: untimed(c.text) }
            : { type: "image", sha256: hashOf(c.data) },
        ),
      };
  }
}

export function normaliseRequest(
  model: { provider: string; id: string },
  context: PiContext,
  salt: string,
  kind: string = model.provider,
): NormalisedRequest {
  const callIds = new Map<string, string>();
  return normaliseArgs({
    salt,
    kind,
    model: `${model.provider}/${model.id}`,
    system: context.systemPrompt ?? "",
    tools: (context.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    })),
    mcp: null,
    messages: context.messages.map((m) => normaliseMessage(m, callIds)),
  }) as NormalisedRequest;
}

export function requestKey(request: NormalisedRequest): string {
  return hashOf(request);
}

const VOLATILE = new RegExp(`${ID.source}|${LOOPBACK.source}`, "g");

/** The texts a model reads in a request (where generated ids and ports can appear), in order. */
function textsOf(context: PiContext): string[] {
  const out = [context.systemPrompt ?? ""];
  for (const m of context.messages) {
    if (m.role === "user")
      out.push(
        typeof m.content === "string"
          ? m.content
          : m.content.map((c) => (c.type === "text" ? c.text : "")).join(""),
      );
    else if (m.role === "assistant")
      for (const b of m.content)
        out.push(
          b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : JSON.stringify(b.arguments),
        );
    else out.push(m.content.map((c) => (c.type === "text" ? c.text : "")).join(""));
  }
  return out;
}

/**
 * The distinct generated ids and loopback addresses of a request, in order of first appearance.
 * Two requests with one key have them at the same places, so the recorded request's list maps
 * onto the replayed one's: an answer that names the recorded company or server (a legacy CEO's
 * fetch URL) is rewritten to name this run's.
 */
export function volatileValues(context: PiContext): string[] {
  return volatilesOf(textsOf(context));
}

/** The distinct generated ids and loopback addresses of some texts, in order of first appearance. */
export function volatilesOf(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(VOLATILE)) seen.add(m[0]);
  return [...seen];
}

/** Adds recorded → current pairs (same positions) to `map`; a value already mapped keeps its mapping. */
export function learnVolatiles(
  map: Map<string, string>,
  recorded: readonly string[],
  current: readonly string[],
): void {
  recorded.forEach((r, i) => {
    const c = current[i];
    if (c !== undefined && c !== r && !map.has(r)) map.set(r, c);
  });
}

/** Replaces every mapped volatile value in every string of `value`. */
export function remapWith<T>(value: T, map: ReadonlyMap<string, string>): T {
  if (map.size === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return v.replace(VOLATILE, (m) => map.get(m) ?? m);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/** Replaces recorded volatile values in every string of `value` with this run's. */
export function remapVolatile<T>(value: T, recorded: readonly string[], current: readonly string[]): T {
  const map = new Map<string, string>();
  learnVolatiles(map, recorded, current);
  return remapWith(value, map);
}
