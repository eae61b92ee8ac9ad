// The approvals inbox: pending approvals first, each with the filed text and a decision form
// (approve, reject, request revision, with a note the CEO reads on its next wake); then the
// decided ones with their notes. A decision shows the mode change it caused.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Approval, DecisionResult } from "../../api/types.js";
import type { LiveCompany } from "../../hooks/use-company.js";
import { formatTime } from "../../model/format.js";
import { DecisionForm } from "./decision-form.js";

export function ApprovalsInbox({ api, live }: { api: Api; live: LiveCompany }) {
  const [outcome, setOutcome] = useState<DecisionResult | undefined>(undefined);
  const names = new Map(live.agents.map((a) => [a.id, a.name]));
  const pending = live.approvals.filter((a) => a.status === "pending");
  const decided = live.approvals.filter((a) => a.status !== "pending").reverse();
  const onDecided = (result: DecisionResult) => {
    setOutcome(result);
    live.reload(["approvals", "company"]);
  };
  return (
    <div class="approvals">
      {outcome && (
        <p class="alert ok" role="status" data-testid="decision-outcome">
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
            <pre class="payload">{a.payload}</pre>
            <DecisionForm api={api} approval={a} onDecided={onDecided} />
          </article>
        ))}
      </section>
      <section class="card wide" aria-labelledby="decided-title">
        <h2 id="decided-title">Decided ({decided.length})</h2>
        {decided.map((a) => (
          <article key={a.id} class="approval decided" aria-labelledby={`apr-${a.id}`}>
            <ApprovalHeader
              approval={a}
              filedBy={a.filedByAgentId ? (names.get(a.filedByAgentId) ?? a.filedByAgentId) : "the operator"}
            />
            <p>
              <span class={`badge ${a.status === "approved" ? "ok" : "warn"}`}>
                {a.status.replace("_", " ")}
              </span>
              {a.decidedAt && <span class="muted"> {formatTime(a.decidedAt)}</span>}
              {a.decisionNote && <span> — note: “{a.decisionNote}”</span>}
            </p>
          </article>
        ))}
      </section>
    </div>
  );
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
