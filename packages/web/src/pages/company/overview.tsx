// The company at a glance: the CEO's mode and why, the org chart, the team with a wake button
// per agent, and the connectors with their readiness; the budget when it is warned or exhausted.
import type { Api } from "../../api/client.js";
import type { WakeStarted } from "../../api/types.js";
import type { LiveCompany } from "../../hooks/use-company.js";
import { BudgetNotice } from "../usage/budget-notice.js";
import { CeoThread } from "./ceo-thread.js";
import { DriftNotice } from "./drift-notice.js";
import { Connectors } from "./connectors.js";
import { ModePanel } from "./mode-panel.js";
import { OrgChart } from "./org-chart.js";
import { Team } from "./team.js";
import { useWake } from "./use-wake.js";

export function Overview({
  api,
  live,
  onStarted,
}: {
  api: Api;
  live: LiveCompany;
  onStarted(w: WakeStarted, agentId: string): void;
}) {
  const wake = useWake(api, onStarted);
  const { company } = live;
  if (!company) return <p aria-busy="true">Loading…</p>;
  // A second wake of a running agent is refused (409): its actions wait for the run to end.
  const running = new Set(live.runs.filter((r) => r.status === "running").map((r) => r.agentId));
  return (
    <div class="overview">
      <BudgetNotice
        api={api}
        companyId={company.id}
        runsVersion={`${live.runs.map((r) => `${r.id}:${r.status}`).join()};budget:${live.budgetVersion}`}
        models={[...new Set(live.agents.map((a) => a.model))]}
      />
      <DriftNotice
        api={api}
        companyId={company.id}
        runsVersion={live.runs.map((r) => `${r.id}:${r.status}`).join()}
      />
      <ModePanel company={company} wake={wake} running={running} />
      <CeoThread api={api} companyId={company.id} messagesVersion={live.messagesVersion} />
      <section class="card wide" aria-labelledby="org-title">
        <h2 id="org-title">Org chart</h2>
        <OrgChart agents={live.agents} connectors={live.connectors} />
      </section>
      <Team
        api={api}
        agents={live.agents}
        connectors={live.connectors}
        wake={wake}
        running={running}
        onChanged={() => live.reload(["agents"])}
      />
      <Connectors connectors={live.connectors} />
    </div>
  );
}
