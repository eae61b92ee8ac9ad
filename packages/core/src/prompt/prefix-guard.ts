// The per-call stable-prefix check (MC-3). The first model call of a session fixes the reference:
// its system prompt (checked against the assembled segments, when known) and its tool list. Every
// later call must send byte-identical ones; a difference fails closed with an error naming the
// segment or the tool change, before anything reaches the provider. Runs once per model call,
// not per event (MC-4): a string comparison, plus one hash per segment for the turn's record.
import { hashText, type PromptSegment, type SegmentId } from "./assemble.js";
import { describeToolListChange, type ToolShape, toolListJson } from "./tool-list.js";

/** The prefix of one model call, hashed: what a cache report prints per turn. */
export interface ModelCallPrefix {
  /** 1 for the first model call of the session. */
  call: number;
  /** Hash of each system segment as it was actually sent (keyed by segment id). */
  segmentHashes: Partial<Record<SegmentId, string>>;
  systemHash: string;
  toolsHash: string;
}

export class PromptPrefixChangedError extends Error {
  readonly code = "prompt_prefix_changed";
  constructor(message: string) {
    super(message);
    this.name = "PromptPrefixChangedError";
  }
}

interface Reference {
  system: string;
  toolsJson: string;
  tools: readonly ToolShape[];
  systemHash: string;
  toolsHash: string;
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export class StablePrefixGuard {
  private reference: Reference | undefined;
  private calls = 0;

  /** `segments`: the assembled prompt's segments; without them only the whole system prompt is compared. */
  constructor(private readonly segments: readonly PromptSegment[] = []) {}

  /** Checks one model call's request; throws PromptPrefixChangedError when the stable prefix moved. */
  check(systemPrompt: string, tools: readonly ToolShape[]): ModelCallPrefix {
    const call = this.calls + 1;
    const ref = this.reference ?? this.fixReference(systemPrompt, tools);
    if (systemPrompt !== ref.system)
      throw new PromptPrefixChangedError(this.describeSystemChange(call, ref.system, systemPrompt));
    // Pi hands over a fresh array of the same tool objects each call: identical elements need no serialising.
    if (!sameElements(tools, ref.tools)) {
      const json = toolListJson(tools);
      if (json !== ref.toolsJson) {
        const change = describeToolListChange(ref.tools, tools) ?? "the tool definitions differ";
        throw new PromptPrefixChangedError(
          `model call ${call}: the tool list differs from the session's first call (${change}); tools are fixed for a session (MC-3)`,
        );
      }
    }
    this.calls = call;
    return {
      call,
      segmentHashes: this.hashSegments(systemPrompt),
      systemHash: ref.systemHash,
      toolsHash: ref.toolsHash,
    };
  }

  private fixReference(system: string, tools: readonly ToolShape[]): Reference {
    if (this.segments.length > 0) {
      for (const s of this.segments) {
        if (system.slice(s.start, s.end) !== s.text) {
          throw new PromptPrefixChangedError(
            `model call 1: the system prompt does not contain segment "${s.id}" where it was assembled; the prompt was altered after assembly (MC-3)`,
          );
        }
      }
      const last = this.segments.at(-1) as PromptSegment;
      if (system.length !== last.end)
        throw new PromptPrefixChangedError(
          "model call 1: the system prompt has text after its last assembled segment (MC-3)",
        );
    }
    const toolsJson = toolListJson(tools);
    this.reference = {
      system,
      toolsJson,
      tools,
      systemHash: hashText(system),
      toolsHash: hashText(toolsJson),
    };
    return this.reference;
  }

  private describeSystemChange(call: number, before: string, after: string): string {
    const at = firstDifference(before, after);
    const segment = this.segments.find((s) => at < s.end + 2) ?? this.segments.at(-1);
    const where = segment ? `segment "${segment.id}"` : "the system prompt";
    return `model call ${call}: ${where} differs from the session's first call at character ${at}; the stable prefix must be byte-identical on every call (MC-3)`;
  }

  private hashSegments(system: string): Partial<Record<SegmentId, string>> {
    const out: Partial<Record<SegmentId, string>> = {};
    for (const s of this.segments) out[s.id] = hashText(system.slice(s.start, s.end));
    return out;
  }
}
