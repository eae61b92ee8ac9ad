// Claude Code's compaction command (MC-8): the host injects it as the next user input when the
// controller says the threshold is reached; a user may also send it (a manual compact).

/** What the host sends: the bare command, so Claude Code's own compaction prompt is used. */
export const COMPACT_COMMAND = "/compact";

/** A prompt that is the compaction command, with or without custom instructions. */
export function isCompactCommand(prompt: string): boolean {
  return /^\/compact(\s|$)/.test(prompt.trim());
}

/** Environment switches with which Claude Code would skip its own compaction (seen in its 2.x binary). */
const COMPACTION_OFF_SWITCHES = ["DISABLE_AUTO_COMPACT", "DISABLE_COMPACT"] as const;

/** MC-8: native auto-compaction is never disabled, not even by a variable inherited from the operator's shell. */
export function keepNativeCompaction(
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of COMPACTION_OFF_SWITCHES) delete out[name];
  return out;
}
