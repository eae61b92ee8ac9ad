// The Overview's first line: what the company is waiting for and what the operator can do about it
// (model/waiting-for.ts) — decide, wake the CEO, write to it, create a task. A company stuck in
// "revising" (the CEO filed nothing since the strategy was sent back, and is not at work) says so.
import type { BudgetUse } from "../../api/types.js";
import type { LiveCompany } from "../../hooks/use-company.js";
import { waitingFor } from "../../model/waiting-for.js";
import { href } from "../../route.js";
import { notAllowed, useMe } from "../../session/permissions.js";
import type { Wake } from "./use-wake.js";

export function WaitingPanel({
  live,
  wake,
  budgetState,
}: {
  live: LiveCompany;
  wake: Wake;
  /** The company budget's state, as the budget notice above read it. */
  budgetState?: BudgetUse["state"] | undefined;
}) {
  const me = useMe();
  const company = live.company;
  if (!company) return null;
  const w = waitingFor({
    company,
    approvals: live.approvals,
    runs: live.runs,
    tasks: live.tasks,
    agents: live.agents,
    budgetState,
  });
  const ceo = company.ceoAgentId;
  const offers = me.may.act ? w.offers : [];
  const writeToCeo = () => {
    const box = document.getElementById("thread-text");
    box?.scrollIntoView({ block: "center" });
    box?.focus();
  };
  return (
    <section
      class={`card wide waiting ${w.stuck ? "stuck" : ""}`}
      aria-labelledby="waiting-title"
      data-testid="waiting-for"
      data-stuck={w.stuck ? "true" : "false"}
    >
      <h2 id="waiting-title">What the company is waiting for</h2>
      <p class="waiting-headline" data-testid="waiting-headline">
        <strong>{w.headline}</strong>
      </p>
      {w.detail && (
        <p data-testid="waiting-detail">
          {w.detail}
          {w.runId && (
            <>
              {" "}
              <a href={href({ page: "run", companyId: company.id, runId: w.runId })}>See the run</a>
            </>
          )}
        </p>
      )}
      {!me.may.act && w.offers.length > 0 && <p class="muted">{notAllowed(me, "act")}</p>}
      <div class="actions" data-testid="waiting-actions">
        {offers.includes("decide") && (
          <a class="button primary" href={href({ page: "company", companyId: company.id, tab: "approvals" })}>
            Go to Approvals
          </a>
        )}
        {offers.includes("start_team_building") && (
          <span class="muted">Use “Start team building” under CEO mode.</span>
        )}
        {offers.includes("wake_ceo") && (
          <button
            type="button"
            class="primary"
            disabled={wake.busy === ceo}
            onClick={() => void wake.start(ceo)}
          >
            {wake.busy === ceo ? "Waking…" : "Wake the CEO"}
          </button>
        )}
        {offers.includes("message_ceo") && (
          <button type="button" onClick={writeToCeo}>
            Write to the CEO
          </button>
        )}
        {offers.includes("create_task") && (
          <a class="button" href={href({ page: "company", companyId: company.id, tab: "tasks" })}>
            Create a task
          </a>
        )}
      </div>
      {wake.error?.agentId === ceo && wake.error.trigger === undefined && (
        <p class="alert error" role="alert">
          Wake the CEO: {wake.error.message}
        </p>
      )}
    </section>
  );
}
