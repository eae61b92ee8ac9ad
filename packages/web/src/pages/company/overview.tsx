// The company at a glance: what it is waiting for and what the operator can do, the CEO's mode and
// why, the thread with the CEO, the org chart (each agent's status, current task and spend), the
// team with a wake button per agent, and the connectors with their readiness; the budget when it
// is warned or exhausted.
import { useEffect, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { useResource } from "../../hooks/use-resource.js";
import { agentGlances } from "../../model/agent-glance.js";
import type { BudgetUse, WakeStarted } from "../../api/types.js";
import type { LiveCompany } from "../../hooks/use-company.js";
import { BudgetNotice } from "../usage/budget-notice.js";
import { CeoThread } from "./ceo-thread.js";
import { DriftNotice } from "./drift-notice.js";
import { Connectors } from "./connectors.js";
import { ModePanel } from "./mode-panel.js";
import { OrgChart } from "./org-chart.js";
import { Team } from "./team.js";
import { useWake } from "./use-wake.js";
import { WaitingPanel } from "./waiting-panel.js";

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
  const [budgetState, setBudgetState] = useState<BudgetUse["state"] | undefined>(undefined);
  const { company } = live;
  // Each agent's spend for its org chart card: re-read as runs start and end.
  const usage = useResource(
    api,
    "GET /api/companies/{id}/usage",
    company ? { params: { id: company.id } } : undefined,
  );
  const runsKey = live.runs.map((r) => `${r.id}:${r.status}`).join();
  const { reload } = usage;
  useEffect(() => reload(), [runsKey, reload]);
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
        onState={setBudgetState}
      />
      <DriftNotice
        api={api}
        companyId={company.id}
        runsVersion={live.runs.map((r) => `${r.id}:${r.status}`).join()}
      />
      <WaitingPanel live={live} wake={wake} budgetState={budgetState} />
      <ModePanel company={company} wake={wake} running={running} />
      <CeoThread api={api} companyId={company.id} messagesVersion={live.messagesVersion} />
      <section class="card wide" aria-labelledby="org-title">
        <h2 id="org-title">Org chart</h2>
        <OrgChart
          agents={live.agents}
          connectors={live.connectors}
          glances={agentGlances(live.agents, live.runs, live.tasks, usage.data)}
        />
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
