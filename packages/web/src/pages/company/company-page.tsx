// One company: its header (name, goal, the CEO's mode), tabs for the overview, runs, approvals
// and usage, and the notice of each run that is running, with the way to watch it live.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { WakeStarted } from "../../api/types.js";
import { useCompany } from "../../hooks/use-company.js";
import { COMPANY_TABS, type CompanyTab, href } from "../../route.js";
import { DueWork } from "../actions/due-work.js";
import { ApprovalsInbox } from "../approvals/approvals-inbox.js";
import { ConnectorsPage } from "./connectors-page.js";
import { BudgetPanel } from "../usage/budget-panel.js";
import { UsagePanel } from "../usage/usage-panel.js";
import { ModeBadge } from "./mode-badge.js";
import { Overview } from "./overview.js";
import { RunningBanner, type StartedRun } from "./running-banner.js";
import { RunsList } from "./runs-list.js";
import { AuditLog } from "./audit-log.js";
import { TasksBoard } from "./tasks-board.js";
import { useMe } from "../../session/permissions.js";

const TAB_TITLES: Record<CompanyTab, string> = {
  overview: "Overview",
  tasks: "Tasks",
  connectors: "Connectors",
  runs: "Runs",
  approvals: "Approvals",
  usage: "Usage",
  audit: "Audit",
};

export function CompanyPage({
  api,
  companyId,
  tab,
  focusTask,
}: {
  api: Api;
  companyId: string;
  tab: CompanyTab;
  /** On the Tasks tab: the task to open and scroll to (a blocker's or a run's link). */
  focusTask?: string;
}) {
  const live = useCompany(api, companyId);
  const me = useMe();
  const [started, setStarted] = useState<StartedRun | undefined>(undefined);
  const { company } = live;
  const pending = live.approvals.filter((a) => a.status === "pending").length;
  // The budget views re-read on a run's start or end and on a budget change.
  const runsVersion = `${live.runs.map((r) => `${r.id}:${r.status}`).join()};budget:${live.budgetVersion}`;
  const onStarted = (w: WakeStarted, agentId: string) => {
    setStarted({ ...w, agentId, runsBefore: live.runs.map((r) => r.id) });
    live.reload(["runs"]);
  };
  return (
    <main class="page">
      <p class="crumbs">
        <a href="#/">Companies</a> / <span>{company?.name ?? companyId}</span>
      </p>
      <div class="company-head">
        <div>
          <h1>{company?.name ?? "…"}</h1>
          {company?.goal && <p class="goal">{company.goal}</p>}
        </div>
        {company && <ModeBadge mode={company.ceoMode} />}
      </div>
      {live.error && (
        <p class="alert error" role="alert">
          {live.error}
        </p>
      )}
      {live.stream === "reconnecting" && (
        <p class="alert" role="status">
          Live updates interrupted; reconnecting…
        </p>
      )}
      {started?.runId === null &&
        !live.runs.some((r) => r.agentId === started.agentId && !started.runsBefore.includes(r.id)) && (
          <p class="alert ok" role="status" data-testid="wake-queued">
            Wake <code>{started.wakeId}</code> queued: no worker has started it yet; its run appears under
            Runs once one does.
          </p>
        )}
      <RunningBanner
        api={api}
        onStopped={() => live.reload(["runs"])}
        companyId={companyId}
        runs={live.runs}
        agents={live.agents}
        started={started}
      />
      <nav class="tabs" aria-label="Company sections">
        {COMPANY_TABS.map((t) => (
          <a
            key={t}
            href={href({ page: "company", companyId, tab: t })}
            aria-current={t === tab ? "page" : undefined}
          >
            {TAB_TITLES[t]}
            {t === "approvals" && pending > 0 && (
              <span class="count" aria-label={`${pending} pending`}>
                {pending}
              </span>
            )}
          </a>
        ))}
      </nav>
      {tab === "overview" && <Overview api={api} live={live} onStarted={onStarted} />}
      {tab === "tasks" && (
        <TasksBoard
          api={api}
          companyId={companyId}
          tasks={live.tasks}
          agents={live.agents}
          {...(focusTask ? { focusTask } : {})}
          onChanged={() => live.reload(["tasks"])}
        />
      )}
      {tab === "connectors" && <ConnectorsPage api={api} live={live} />}
      {tab === "runs" && (
        <>
          {me.may.act && <DueWork api={api} companyId={companyId} onStarted={() => live.reload(["runs"])} />}
          <RunsList companyId={companyId} runs={live.runs} agents={live.agents} />
        </>
      )}
      {tab === "approvals" && <ApprovalsInbox api={api} live={live} />}
      {tab === "audit" && <AuditLog api={api} companyId={companyId} />}
      {tab === "usage" && (
        <>
          <BudgetPanel api={api} companyId={companyId} agents={live.agents} runsVersion={runsVersion} />
          <UsagePanel api={api} companyId={companyId} runsVersion={runsVersion} />
        </>
      )}
    </main>
  );
}
