// A small line diff for `cadre prompts diff` (MC-7): locked texts are a few hundred lines at most,
// so a plain longest-common-subsequence table is simple and fast enough. Output is unified-diff-like.

type Op = { kind: " " | "-" | "+"; line: string };

function diffOps(before: string[], after: string[]): Op[] {
  const n = before.length;
  const m = after.length;
  // lcs[i][j] = LCS length of before[i..] and after[j..]
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] =
        before[i] === after[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && before[i] === after[j]) {
      ops.push({ kind: " ", line: before[i++]! });
      j++;
    } else if (j < m && (i === n || lcs[i]![j + 1]! > lcs[i + 1]![j]!)) {
      // removals before additions on a tie, as unified diffs show them
      ops.push({ kind: "+", line: after[j++]! });
    } else {
      ops.push({ kind: "-", line: before[i++]! });
    }
  }
  return ops;
}

/** Unified-style diff of two texts with `context` unchanged lines around each change; "" when equal. */
export function diffLines(before: string, after: string, context = 2): string {
  if (before === after) return "";
  const ops = diffOps(before.split("\n"), after.split("\n"));
  const keep = ops.map(() => false);
  ops.forEach((op, k) => {
    if (op.kind === " ") return;
    for (let c = Math.max(0, k - context); c <= Math.min(ops.length - 1, k + context); c++) keep[c] = true;
  });
  const out: string[] = [];
  let skipped = false;
  ops.forEach((op, k) => {
    if (!keep[k]) {
      skipped = true;
      return;
    }
    if (skipped || out.length === 0) out.push("@@");
    skipped = false;
    out.push(`${op.kind}${op.line}`);
  });
  return out.join("\n");
}
