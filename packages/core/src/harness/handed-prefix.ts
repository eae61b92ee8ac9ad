// MC-3 for harnesses that run their own loop (Claude Code, Codex): Cadre cannot see each model call
// they make, but it can check, before every turn it hands them, that what it hands them is the
// session's first turn byte for byte — the system prompt segment by segment, the tool list, and the
// MCP registration (server names, commands, enabled tools, the built-ins and switches that decide
// what the harness offers). A difference is a PromptPrefixChangedError before the harness starts;
// the adapter reports it as an error event and fails the turn (a break is never a silent cache miss).
import { type ModelCallPrefix, PromptPrefixChangedError, StablePrefixGuard } from "../prompt/prefix-guard.js";
import type { PromptSegment } from "../prompt/assemble.js";
import type { ToolShape } from "../prompt/tool-list.js";

export class HandedPrefixGuard {
  readonly #guard: StablePrefixGuard;
  #registration: string | undefined;
  #turns = 0;

  constructor(segments: readonly PromptSegment[] = []) {
    this.#guard = new StablePrefixGuard(segments);
  }

  /**
   * Checks one turn's hand-over. `registration` is plain JSON data: compared as serialised.
   * Throws PromptPrefixChangedError naming what moved.
   */
  check(systemPrompt: string, tools: readonly ToolShape[], registration: unknown): ModelCallPrefix {
    const turn = this.#turns + 1;
    const json = JSON.stringify(registration);
    if (this.#registration !== undefined && json !== this.#registration)
      throw new PromptPrefixChangedError(
        `turn ${turn}: the MCP registration handed to the harness differs from the session's first turn (${changedKeys(this.#registration, json)}); tools and MCP servers are fixed for a session (MC-3)`,
      );
    const prefix = this.#guard.check(systemPrompt, tools);
    this.#registration ??= json;
    this.#turns = turn;
    return prefix;
  }
}

/** The top-level keys whose values differ, for the error text. */
function changedKeys(before: string, after: string): string {
  const a = JSON.parse(before) as Record<string, unknown>;
  const b = JSON.parse(after) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(
    (k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]),
  );
  return keys.length > 0 ? `changed: ${keys.join(", ")}` : "changed";
}
