// The CEO's mode, the state it was computed from (in the server's words), the company tools it
// offers, and the operator's explicit trigger: "Start team building".
import type { ShownCompany } from "../../model/company-live.js";
import { ModeBadge } from "./mode-badge.js";
import type { Wake } from "./use-wake.js";

export function ModePanel({ company, wake }: { company: ShownCompany; wake: Wake }) {
  const ceo = company.ceoAgentId;
  const starting = wake.busy === ceo;
  return (
    <section class="card" aria-labelledby="mode-title">
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
            ? company.toolsInMode.join(", ")
            : "none (waiting for the operator)"}
        .
      </p>
      <button
        type="button"
        class="primary"
        disabled={starting}
        onClick={() => void wake.start(ceo, "start_team_building")}
      >
        {starting ? "Starting…" : "Start team building"}
      </button>
      {wake.error?.agentId === ceo && wake.error.trigger === "start_team_building" && (
        <p class="alert error" role="alert">
          {wake.error.message}
        </p>
      )}
    </section>
  );
}
