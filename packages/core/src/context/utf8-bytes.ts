// Byte-exact UTF-8 helpers for hard byte caps (handoff, MC-9/MC-12). Cuts never split a character.

const ELLIPSIS = "…";

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The longest prefix of `text` that fits in `maxBytes`, marked with "…" when shortened. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return "";
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  const room = maxBytes - utf8Length(ELLIPSIS);
  if (room <= 0) return "";
  let end = room;
  // Step back over continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8") + ELLIPSIS;
}
