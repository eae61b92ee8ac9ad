// Anthropic prompt-cache breakpoints (MC-3). Anthropic caches a request prefix up to each block
// marked `cache_control`, in the order tools → system → messages, with at most four markers per
// request. The stable prefix gets three: the last tool (all tools), the last system block (the whole
// system prompt) and the last block of the last user message (the conversation so far, which the
// next call extends). pi-ai's anthropic provider places exactly these itself; this pass runs on its
// final payload (the `onPayload` hook), verifies them, adds any that are missing and drops extras
// beyond the limit — so the guarantee is ours, not an accident of a dependency's version.

export const ANTHROPIC_MAX_BREAKPOINTS = 4;

type Block = Record<string, unknown> & { type?: unknown; cache_control?: unknown };
interface AnthropicPayload {
  tools?: Block[];
  system?: string | Block[];
  messages?: Array<{ role?: unknown; content?: string | Block[] }>;
}

const EPHEMERAL = { type: "ephemeral" } as const;
// Blocks Anthropic accepts a breakpoint on inside a user message.
const MARKABLE = new Set(["text", "image", "document", "tool_result", "tool_use"]);

/** Where the payload carries breakpoints, as paths ("tools[2]", "system[0]", "messages[4].content[1]"). */
export function anthropicBreakpoints(payload: unknown): string[] {
  const p = payload as AnthropicPayload;
  const out: string[] = [];
  p.tools?.forEach((t, i) => t.cache_control && out.push(`tools[${i}]`));
  if (Array.isArray(p.system)) p.system.forEach((b, i) => b.cache_control && out.push(`system[${i}]`));
  p.messages?.forEach((m, i) => {
    if (Array.isArray(m.content))
      m.content.forEach((b, j) => b.cache_control && out.push(`messages[${i}].content[${j}]`));
  });
  return out;
}

/** The three breakpoints the stable prefix needs, as paths; absent parts are skipped. */
export function requiredAnthropicBreakpoints(payload: unknown): string[] {
  const p = payload as AnthropicPayload;
  const out: string[] = [];
  if (p.tools && p.tools.length > 0) out.push(`tools[${p.tools.length - 1}]`);
  const systemBlocks = typeof p.system === "string" ? (p.system.length > 0 ? 1 : 0) : (p.system?.length ?? 0);
  if (systemBlocks > 0) out.push(`system[${systemBlocks - 1}]`);
  const lastIndex = (p.messages?.length ?? 0) - 1;
  const last = p.messages?.[lastIndex];
  if (last && last.role === "user") {
    const count = typeof last.content === "string" ? 1 : (last.content?.length ?? 0);
    const block = Array.isArray(last.content) ? last.content[count - 1] : undefined;
    if (
      typeof last.content === "string" ? last.content.length > 0 : block && MARKABLE.has(String(block.type))
    )
      out.push(`messages[${lastIndex}].content[${count - 1}]`);
  }
  return out;
}

/**
 * Places the stable-prefix breakpoints on an Anthropic Messages payload, in place, and returns it.
 * Existing markers on the required blocks are kept as they are (their TTL included); markers
 * elsewhere are kept while the total stays within four, dropped from the end of the request first.
 */
export function placeAnthropicCacheBreakpoints<T>(payload: T): T {
  const p = payload as AnthropicPayload;
  if (typeof p.system === "string" && p.system.length > 0) p.system = [{ type: "text", text: p.system }];
  const last = p.messages?.at(-1);
  if (last && last.role === "user" && typeof last.content === "string" && last.content.length > 0)
    last.content = [{ type: "text", text: last.content }];
  const required = requiredAnthropicBreakpoints(p);
  const ttl = firstMarker(p);
  for (const path of required) {
    const block = blockAt(p, path);
    if (block && !block.cache_control) block.cache_control = ttl ?? { ...EPHEMERAL };
  }
  const extras = anthropicBreakpoints(p).filter((path) => !required.includes(path));
  let over = required.length + extras.length - ANTHROPIC_MAX_BREAKPOINTS;
  for (let i = extras.length - 1; over > 0 && i >= 0; i--, over--)
    delete (blockAt(p, extras[i] as string) as Block).cache_control;
  return payload;
}

function firstMarker(p: AnthropicPayload): Record<string, unknown> | undefined {
  const first = anthropicBreakpoints(p)[0];
  const marker = first ? blockAt(p, first)?.cache_control : undefined;
  return marker && typeof marker === "object" ? { ...(marker as Record<string, unknown>) } : undefined;
}

function blockAt(p: AnthropicPayload, path: string): Block | undefined {
  const tool = /^tools\[(\d+)\]$/.exec(path);
  if (tool) return p.tools?.[Number(tool[1])];
  const system = /^system\[(\d+)\]$/.exec(path);
  if (system) return Array.isArray(p.system) ? p.system[Number(system[1])] : undefined;
  const message = /^messages\[(\d+)\]\.content\[(\d+)\]$/.exec(path);
  if (!message) return undefined;
  const content = p.messages?.[Number(message[1])]?.content;
  return Array.isArray(content) ? content[Number(message[2])] : undefined;
}
