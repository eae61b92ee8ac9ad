// What a revised strategy changed from the version before it: a line diff of the two filed texts
// (model/line-diff.ts), unchanged stretches folded. Open on a pending revision, where the operator
// decides on exactly what changed; folded on a decided one.
import type { Approval } from "../../api/types.js";
import { diffSummary, foldDiff, lineDiff } from "../../model/line-diff.js";

/** The version filed before `a` of the same type, if any (the list is in filing order). */
export function previousVersion(a: Approval, all: readonly Approval[]): Approval | undefined {
  const before = all.filter(
    (x) =>
      x.type === a.type &&
      x.id !== a.id &&
      (x.createdAt < a.createdAt || (x.createdAt === a.createdAt && x.id < a.id)),
  );
  return before.at(-1);
}

export function VersionDiff({
  current,
  previous,
  open,
}: {
  current: Approval;
  previous: Approval;
  open: boolean;
}) {
  const lines = lineDiff(previous.payload, current.payload);
  const pieces = foldDiff(lines);
  return (
    <details class="version-diff" data-testid="version-diff" open={open}>
      <summary>
        What changed from the previous version (“{previous.title}”, {previous.status.replace("_", " ")}):{" "}
        <span data-testid="diff-summary">{diffSummary(lines)}</span>
      </summary>
      <pre class="diff" aria-label="Line changes: + added, − removed">
        {pieces.map((p, k) =>
          p.kind === "fold" ? (
            <span key={k} class="diff-fold">
              {`… ${p.count} unchanged line${p.count === 1 ? "" : "s"}`}
            </span>
          ) : (
            <span key={k} class={`diff-${p.kind}`} data-kind={p.kind}>
              {`${p.kind === "added" ? "+ " : p.kind === "removed" ? "− " : "  "}${p.text}`}
            </span>
          ),
        )}
      </pre>
    </details>
  );
}
