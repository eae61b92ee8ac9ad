import { describe, expect, it } from "vitest";
import { diffSummary, foldDiff, lineDiff } from "./line-diff.js";

describe("line diff between strategy versions", () => {
  it("keeps common lines and marks what was removed and added, in order", () => {
    const before = "# Strategy\n## Team\n- CTO\n- CMO\n## Plan\nShip in Q3.";
    const after = "# Strategy\n## Team\n- CTO\n- Head of Sales\n## Plan\nShip in Q3.\nFirst customer: Acme.";
    expect(lineDiff(before, after)).toEqual([
      { kind: "same", text: "# Strategy" },
      { kind: "same", text: "## Team" },
      { kind: "same", text: "- CTO" },
      { kind: "removed", text: "- CMO" },
      { kind: "added", text: "- Head of Sales" },
      { kind: "same", text: "## Plan" },
      { kind: "same", text: "Ship in Q3." },
      { kind: "added", text: "First customer: Acme." },
    ]);
    expect(diffSummary(lineDiff(before, after))).toBe("2 lines added, 1 line removed");
  });

  it("says no change for the same text", () => {
    expect(diffSummary(lineDiff("a\nb", "a\nb"))).toBe("no change");
  });

  it("folds long unchanged stretches, keeping context around each change", () => {
    const lines = Array.from({ length: 20 }, (_, k) => `line ${k}`);
    const changed = [...lines];
    changed[10] = "line ten";
    const pieces = foldDiff(lineDiff(lines.join("\n"), changed.join("\n")), 1);
    expect(pieces).toEqual([
      { kind: "fold", count: 9 },
      { kind: "same", text: "line 9" },
      { kind: "removed", text: "line 10" },
      { kind: "added", text: "line ten" },
      { kind: "same", text: "line 11" },
      { kind: "fold", count: 8 },
    ]);
  });
});
