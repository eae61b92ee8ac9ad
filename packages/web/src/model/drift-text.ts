// How a model drift reads, on the overview's notice and on the Connectors tab: the declared model
// and what the endpoint served instead, or — when the model under the declared id was replaced —
// what it offered then and now, each fingerprint as its kind and first characters.

/** A fingerprint as read: "digest 46e0c10c039e" (its kind and first characters). */
export function shortFingerprint(fp: string): string {
  const at = fp.indexOf(":");
  return at < 0 ? fp.slice(0, 12) : `${fp.slice(0, at)} ${fp.slice(at + 1, at + 13)}`;
}

/** The model under `declared` was replaced: what the endpoint offered when declared and now. */
export function replacedText(declared: string, fingerprint: { declared: string; served: string }): string {
  return `the model under "${declared}" was replaced (${shortFingerprint(fingerprint.declared)} when declared, ${shortFingerprint(fingerprint.served)} now)`;
}

/** A drift a run saw: another model served, or the declared one replaced. */
export function driftText(d: {
  declared: string;
  served: string;
  fingerprint?: { declared: string; served: string };
}): string {
  if (d.fingerprint) return replacedText(d.declared, d.fingerprint);
  return `declared on "${d.declared}", the endpoint served "${d.served}"`;
}
