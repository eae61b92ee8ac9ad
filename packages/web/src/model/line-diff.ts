// What changed between two versions of a text, line by line (a strategy and its revision): the
// longest common subsequence of lines, then the edits in order, unchanged stretches folded down to
// a little context. Computed in the browser from the two approvals' texts; nothing is stored.

export type DiffLine = { kind: "same" | "added" | "removed"; text: string };
/** A shown piece of the diff: lines, or a fold of unchanged lines left out. */
export type DiffPiece = DiffLine | { kind: "fold"; count: number };

/** Past this many lines a side, the table would cost too much: the texts are compared whole. */
const MAX_LINES = 3000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  if (a.length > MAX_LINES || b.length > MAX_LINES)
    return [
      ...a.map((text) => ({ kind: "removed" as const, text })),
      ...b.map((text) => ({ kind: "added" as const, text })),
    ];
  // lcs[i][j]: the common lines of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      out.push({ kind: "same", text: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) out.push({ kind: "removed", text: a[i++]! });
    else out.push({ kind: "added", text: b[j++]! });
  }
  while (i < a.length) out.push({ kind: "removed", text: a[i++]! });
  while (j < b.length) out.push({ kind: "added", text: b[j++]! });
  return out;
}

/** The diff with unchanged stretches folded, keeping `context` lines around each change. */
export function foldDiff(lines: readonly DiffLine[], context = 2): DiffPiece[] {
  const near = lines.map((_, k) =>
    lines.slice(Math.max(0, k - context), k + context + 1).some((l) => l.kind !== "same"),
  );
  const out: DiffPiece[] = [];
  let folded = 0;
  lines.forEach((line, k) => {
    if (line.kind === "same" && !near[k]) {
      folded++;
      return;
    }
    if (folded > 0) out.push({ kind: "fold", count: folded });
    folded = 0;
    out.push(line);
  });
  if (folded > 0) out.push({ kind: "fold", count: folded });
  return out;
}

/** How much changed, in words: "3 lines added, 1 removed", or "no change". */
export function diffSummary(lines: readonly DiffLine[]): string {
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.filter((l) => l.kind === "removed").length;
  if (added === 0 && removed === 0) return "no change";
  const n = (k: number, what: string) => `${k} line${k === 1 ? "" : "s"} ${what}`;
  return [added > 0 ? n(added, "added") : "", removed > 0 ? n(removed, "removed") : ""]
    .filter(Boolean)
    .join(", ");
}
