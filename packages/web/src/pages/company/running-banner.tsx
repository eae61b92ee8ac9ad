// The runs that are running now, each with the way to watch it live. What it shows follows the
// company feed (a run's first and terminal events re-read the runs), so a run that ended leaves
// the banner by itself: it never says "started … in mode X" about a run that is over, in a mode
// that has moved on. The run the operator just started is shown from the wake's answer until the
// runs list knows it.
import type { Api } from "../../api/client.js";
import type { Agent, Run, WakeStarted } from "../../api/types.js";
import { href } from "../../route.js";
import { StopRun } from "../actions/stop-run.js";
import { useMe } from "../../session/permissions.js";

/** A wake the operator started here, whose agent it woke, and the runs known before it (a queued wake's run is a new one). */
export type StartedRun = WakeStarted & { agentId: string; runsBefore: string[] };

interface Shown {
  runId: string;
  agentId: string;
  trigger: string;
  mode: string;
}

export function runningRuns(runs: readonly Run[], started: StartedRun | undefined): Shown[] {
  const shown: Shown[] = runs
    .filter((r) => r.status === "running")
    .map((r) => ({ runId: r.id, agentId: r.agentId, trigger: r.trigger, mode: r.mode }));
  if (started?.runId && !runs.some((r) => r.id === started.runId))
    shown.push({
      runId: started.runId,
      agentId: started.agentId,
      trigger: started.trigger,
      mode: started.mode,
    });
  return shown;
}

export function RunningBanner({
  api,
  companyId,
  runs,
  agents,
  started,
  onStopped,
}: {
  api: Api;
  onStopped(): void;
  companyId: string;
  runs: readonly Run[];
  agents: readonly Agent[];
  started: StartedRun | undefined;
}) {
  const names = new Map(agents.map((a) => [a.id, a.name]));
  // Stopping a run is an operator's action: a viewer watches without the button.
  const may = useMe().may.act;
  return (
    <>
      {runningRuns(runs, started).map((r) => (
        <div key={r.runId} class="alert ok running">
          <p role="status" data-testid="run-running">
            {names.get(r.agentId) ?? r.agentId} is running: run <code>{r.runId}</code> (
            {r.trigger.replace(/_/g, " ") || "wake"}, woken in {r.mode}).{" "}
            <a href={href({ page: "run", companyId, runId: r.runId })}>Watch it live</a>
          </p>
          {may && <StopRun api={api} runId={r.runId} onStopped={onStopped} />}
        </div>
      ))}
    </>
  );
}
