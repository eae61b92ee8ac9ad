// The approvals inbox: pending approvals first, each with the filed text (rendered markdown) and a
// decision form (approve, reject, request revision, with a note the CEO reads on its next wake,
// and what each decision will do to the CEO's mode); then the decided ones, each in full with its
// decision, note and who decided. A revised strategy shows what changed from the version before it.
// A decision shows the mode change it caused, and focus moves to that outcome; the outcome of a
// rejection or a revision request goes once the CEO has filed again (the new version is pending).
// Between the two, the tasks handed in whose review is the operator's (review-inbox.tsx).
import { useEffect, useRef, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Approval, DecisionResult } from "../../api/types.js";
import type { LiveCompany } from "../../hooks/use-company.js";
import { formatTime } from "../../model/format.js";
import { ApprovalText } from "./approval-text.js";
import { DecisionForm } from "./decision-form.js";
import { previousVersion, VersionDiff } from "./version-diff.js";
import { ReviewInbox } from "./review-inbox.js";

export function ApprovalsInbox({ api, live }: { api: Api; live: LiveCompany }) {
  const [outcome, setOutcome] = useState<DecisionResult | undefined>(undefined);
  const names = new Map(live.agents.map((a) => [a.id, a.name]));
  const pending = live.approvals.filter((a) => a.status === "pending");
  const decided = live.approvals.filter((a) => a.status !== "pending").reverse();
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  // A decision that sent the strategy back is answered once a later version of it was filed.
  const decidedOn = outcome?.approval;
  const refiled =
    decidedOn !== undefined &&
    decidedOn.status !== "approved" &&
    live.approvals.some(
      (a) => a.type === decidedOn.type && a.id !== decidedOn.id && a.createdAt >= decidedOn.createdAt,
    );
  const onDecided = (result: DecisionResult) => {
    setOutcome(result);
    live.reload(["approvals", "company"]);
  };
  // The form that had focus leaves the pending list: focus goes to what the decision did.
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);
  return (
    <div class="approvals">
      {outcome && !refiled && (
        <p class="alert ok" role="status" data-testid="decision-outcome" tabIndex={-1} ref={outcomeRef}>
          “{outcome.approval.title}” {outcome.approval.status.replace("_", " ")}. CEO mode:{" "}
          {outcome.modeBefore} → <strong>{outcome.modeAfter}</strong>.
        </p>
      )}
      <section class="card wide" aria-labelledby="pending-title">
        <h2 id="pending-title">Pending ({pending.length})</h2>
        {pending.length === 0 && <p class="muted">Nothing waits for your decision.</p>}
        {pending.map((a) => (
          <article key={a.id} class="approval" data-testid="pending-approval" aria-labelledby={`apr-${a.id}`}>
            <ApprovalHeader
              approval={a}
              filedBy={a.filedByAgentId ? (names.get(a.filedByAgentId) ?? a.filedByAgentId) : "the operator"}
            />
            <Revision approval={a} all={live.approvals} open={true} />
            <ApprovalText text={a.payload} />
            <DecisionForm api={api} approval={a} mode={live.company?.ceoMode} onDecided={onDecided} />
          </article>
        ))}
      </section>
      <ReviewInbox api={api} live={live} />
      <section class="card wide" aria-labelledby="decided-title">
        <h2 id="decided-title">Decided ({decided.length})</h2>
        {decided.map((a) => (
          <article
            key={a.id}
            class="approval decided"
            data-testid="decided-approval"
            aria-labelledby={`apr-${a.id}`}
          >
            <ApprovalHeader
              approval={a}
              filedBy={a.filedByAgentId ? (names.get(a.filedByAgentId) ?? a.filedByAgentId) : "the operator"}
            />
            <p data-testid="decision">
              <span class={`badge ${a.status === "approved" ? "ok" : "warn"}`}>
                {a.status.replace("_", " ")}
              </span>{" "}
              by{" "}
              {!a.decidedBy || a.decidedBy === "operator"
                ? "the operator"
                : names.has(a.decidedBy)
                  ? names.get(a.decidedBy)
                  : `operator ${a.decidedBy}`}
              {a.decidedAt && <span class="muted"> · {formatTime(a.decidedAt)}</span>}
            </p>
            {a.decisionNote ? (
              <blockquote class="decision-note" data-testid="decision-note">
                <span class="muted">Note: </span>
                {a.decisionNote}
              </blockquote>
            ) : (
              <p class="muted">No note.</p>
            )}
            <Revision approval={a} all={live.approvals} open={false} />
            <ApprovalText text={a.payload} />
          </article>
        ))}
      </section>
    </div>
  );
}

function Revision({ approval, all, open }: { approval: Approval; all: readonly Approval[]; open: boolean }) {
  const previous = previousVersion(approval, all);
  return previous ? <VersionDiff current={approval} previous={previous} open={open} /> : null;
}

function ApprovalHeader({ approval: a, filedBy }: { approval: Approval; filedBy: string }) {
  return (
    <header>
      <h3 id={`apr-${a.id}`}>{a.title}</h3>
      <p class="muted">
        {a.type === "approve_ceo_strategy" ? "CEO strategy" : "hire"} · filed by {filedBy} via{" "}
        {a.via === "tool" ? "file_approval" : "legacy HTTP"} · {formatTime(a.createdAt)}
      </p>
    </header>
  );
}
