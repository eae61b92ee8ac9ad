// Per-part hashes of a cassette key, and the diagnosis of a miss. A cassette entry keeps the hash of
// each part of its request (connector kind, model, system prompt, tools, MCP config, messages or the
// harness prompt) and of each message: when a request has no recording, the nearest recording of the
// same sample says WHAT differed — "tools changed" is a different fix from "the prompt changed".
import { hashOf } from "../data/hash.js";

/** The parts of a key, in the order a miss names them. */
export const KEY_PARTS = ["salt", "kind", "model", "system", "tools", "mcp", "messages", "prompt"] as const;
export type KeyPart = (typeof KEY_PARTS)[number];
export type PartHashes = Partial<Record<KeyPart, string>>;

/** What a differing part means to an operator. */
const MEANING: Record<KeyPart, string> = {
  salt: "another sample",
  kind: "connector kind changed",
  model: "model id changed",
  system: "system prompt changed",
  tools: "tools changed (a tool was added, removed, renamed or its description or schema edited)",
  mcp: "MCP server config or harness policy changed",
  messages: "conversation differs",
  prompt: "prompt changed (the wake's cue or briefing)",
};

/** The hash of each part present in `request` (a normalised request: parts are its top-level fields). */
export function hashParts(request: object): PartHashes {
  const out: PartHashes = {};
  for (const part of KEY_PARTS)
    if (part in request) out[part] = hashOf((request as Record<string, unknown>)[part]);
  return out;
}

/** One hash per message, so a miss can say from which message on a conversation went another way. */
export function messageHashes(messages: readonly unknown[]): string[] {
  return messages.map((m) => hashOf(m));
}

export interface Recorded {
  key: string;
  parts: PartHashes;
  messageHashes?: string[];
}

export interface MissDiagnosis {
  /** The nearest recording of the same sample, if the sample has any. */
  nearest?: string;
  /** The parts that differ from it (never salt: only the same sample's recordings are compared). */
  differs: KeyPart[];
  /** One line for an operator: what differed, or that the sample was never recorded. */
  text: string;
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

const short = (hash: string | undefined) => (hash ? hash.slice(0, 12) : "none");

/**
 * The recording of the same sample (same salt) nearest to the missed request: fewest differing
 * parts, then the longest common run of messages, then the closest number of messages.
 */
export function diagnoseMiss(
  wanted: { parts: PartHashes; messageHashes?: readonly string[] },
  recorded: readonly Recorded[],
): MissDiagnosis {
  const same = recorded.filter((r) => r.parts.salt === wanted.parts.salt);
  if (same.length === 0)
    return {
      differs: ["salt"],
      text: "this sample has no recording at all (never recorded, or recorded with fewer samples)",
    };
  const wantedMessages = wanted.messageHashes ?? [];
  const scored = same.map((r) => {
    const differs = KEY_PARTS.filter((p) => p !== "salt" && r.parts[p] !== wanted.parts[p]);
    const prefix = commonPrefix(r.messageHashes ?? [], wantedMessages);
    const distance = Math.abs((r.messageHashes?.length ?? 0) - wantedMessages.length);
    return { r, differs, prefix, distance };
  });
  scored.sort(
    (a, b) => a.differs.length - b.differs.length || b.prefix - a.prefix || a.distance - b.distance,
  );
  const best = scored[0]!;
  const named = best.differs.map((p) => {
    if (p === "messages")
      return `${MEANING.messages} from message #${best.prefix} on (an earlier answer or tool result went another way)`;
    return `${MEANING[p]} (${p} ${short(best.r.parts[p])} recorded, ${short(wanted.parts[p])} now)`;
  });
  return {
    nearest: best.r.key,
    differs: best.differs,
    text: `nearest recording ${short(best.r.key)} of this sample differs in ${best.differs.join(", ") || "nothing (?)"}: ${named.join("; ")}`,
  };
}
