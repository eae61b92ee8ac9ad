// MC-3 across wakes. An agent's session now lives across wakes, but its system prompt is fixed for
// the session's lifetime: it is built once, at the session's start, and every model call proves it
// byte-identical. What the company changed meanwhile (the mode and its document, the decision and
// its note, the directory after a hire, MEMORY.md) therefore goes into the per-call part: the
// stable segments that differ from the session's own are sent, whole, before the cue, under a
// fixed preamble. A user expects a resumed CEO to follow its new mode; MC-3 forbids editing the
// system prompt mid-session; this is how both hold. (A changed tool list cannot be handed over
// like this: tools never change inside a session, so the session starts fresh from a handoff.)
import { BOOTSTRAP_SEPARATOR, type PromptSegment } from "@cadre/core";

/** Locked (MC-7): it reaches the model in the user turn of every resumed session whose segments changed. */
export const SEGMENT_UPDATE_PREAMBLE =
  "Since this session began, parts of your instructions have changed. The sections below replace the matching parts of your system prompt; everything else in it still holds.";

/** The stable segments of `current` that differ from (or are missing in) the session's own. */
export function changedSegments(
  session: readonly PromptSegment[],
  current: readonly PromptSegment[],
): PromptSegment[] {
  const before = new Map(session.map((s) => [s.id, s.hash]));
  return current.filter((s) => before.get(s.id) !== s.hash);
}

/** The per-call prompt of a wake: the changed segments (if any) under the preamble, then the cue. */
export function perCallPrompt(cue: string, changed: readonly PromptSegment[]): string {
  if (changed.length === 0) return cue;
  return [SEGMENT_UPDATE_PREAMBLE, ...changed.map((s) => s.text)].join("\n\n") + BOOTSTRAP_SEPARATOR + cue;
}
