// The CEO's mode, the state it was computed from (in the server's words), the company tools it
// offers, and the operator's actions that fit it — "Start team building" only in team building,
// "Decide the strategy" while one is pending. Tools and actions are the server's (the company
// view's `toolsInMode`, `toolsOffered` and `operatorActions`, from the one mode decision): the
// dashboard restates no tool list or mode table, and offers nothing while a mode change is re-read.
import type { ShownCompany } from "../../model/company-live.js";
import { href } from "../../route.js";
import { ModeBadge } from "./mode-badge.js";
import type { Wake } from "./use-wake.js";
import { notAllowed, useMe } from "../../session/permissions.js";

export function ModePanel({
  company,
  wake,
  running,
}: {
  company: ShownCompany;
  wake: Wake;
  /** Agents with a run in progress. */
  running: ReadonlySet<string>;
}) {
  const me = useMe();
  const ceo = company.ceoAgentId;
  const starting = wake.busy === ceo;
  // Nothing is offered while a mode change is re-read, or while the CEO's run is in progress.
  const actions = !me.may.act || company.toolsPending || running.has(ceo) ? [] : company.operatorActions;
  const refused = company.toolsOffered.filter((t) => !company.toolsInMode.includes(t));
  return (
    <section class="card" aria-labelledby="mode-title" data-testid="mode-panel">
      <h2 id="mode-title">CEO mode</h2>
      <p>
        <ModeBadge mode={company.ceoMode} />
      </p>
      <p data-testid="ceo-mode-reason">
        <strong>Why:</strong> {company.ceoModeReason}.
      </p>
      <p class="muted" data-testid="mode-tools">
        Company tools in this mode:{" "}
        {company.toolsPending
          ? "…"
          : company.toolsInMode.length > 0
            ? `${company.toolsInMode.join(", ")}${refused.length > 0 ? ` (${refused.join(", ")} is refused in this mode)` : ""}`
            : "none (waiting for the operator)"}
        .
      </p>
      {!me.may.act && company.operatorActions.length > 0 && <p class="muted">{notAllowed(me, "act")}</p>}
      <div class="actions" data-testid="mode-actions">
        {actions.includes("start_team_building") && (
          <button
            type="button"
            class="primary"
            disabled={starting}
            onClick={() => void wake.start(ceo, "start_team_building")}
          >
            {starting ? "Starting…" : "Start team building"}
          </button>
        )}
        {actions.includes("decide_strategy") && (
          <a class="button primary" href={href({ page: "company", companyId: company.id, tab: "approvals" })}>
            Decide the strategy
          </a>
        )}
      </div>
      {wake.error?.agentId === ceo && wake.error.trigger === "start_team_building" && (
        <p class="alert error" role="alert">
          {wake.error.message}
        </p>
      )}
    </section>
  );
}
