// Usage of a company: totals, a table per agent and per run (tokens, cost, cache hit rate), and
// the cache hit rate per model call of the chosen run (the latest one with model calls by default).
import { useEffect, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { useResource } from "../../hooks/use-resource.js";
import { formatCost, formatPercent, formatTokens } from "../../model/format.js";
import { sortByTotal, type UsageRow } from "../../model/usage-series.js";
import { CacheChart } from "./cache-chart.js";
import { UsageTable } from "./usage-table.js";

export function UsagePanel({
  api,
  companyId,
  runsVersion,
}: {
  api: Api;
  companyId: string;
  runsVersion: string;
}) {
  const report = useResource(api, "GET /api/companies/{id}/usage", { params: { id: companyId } });
  const { reload } = report;
  useEffect(() => reload(), [runsVersion, reload]);
  const r = report.data;
  const runs = r?.runs ?? [];
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const withCalls = runs.filter((x) => x.usage.total > 0);
  const runId = chosen ?? withCalls.at(-1)?.runId;
  const perRun = useResource(api, "GET /api/runs/{id}/usage", runId ? { params: { id: runId } } : undefined);
  if (report.error)
    return (
      <p class="alert error" role="alert">
        {report.error}
      </p>
    );
  if (!r) return <p aria-busy="true">Loading…</p>;
  const agentRows: UsageRow[] = r.agents.map((a) => ({
    key: a.agentId,
    label: a.name,
    detail: `${a.role} · ${a.model} · ${a.runs} run(s)`,
    usage: a.usage,
  }));
  const runRows: UsageRow[] = [...runs]
    .reverse()
    .map((x) => ({ key: x.runId, label: x.runId, detail: `${x.agentName} · ${x.status}`, usage: x.usage }));
  return (
    <div class="usage">
      <section class="card wide" aria-labelledby="usage-total-title">
        <h2 id="usage-total-title">Company total</h2>
        <p data-testid="usage-total">
          {formatTokens(r.usage.total)} tokens · {formatCost(r.usage.cost)} · cache hit rate{" "}
          {formatPercent(r.usage.hitRate)}
        </p>
      </section>
      <UsageTable title="Per agent" rows={sortByTotal(agentRows)} testId="usage-agents" />
      <UsageTable title="Per run" rows={runRows} testId="usage-runs" />
      <section class="card wide" aria-labelledby="usage-cache-title">
        <h2 id="usage-cache-title">Prompt cache</h2>
        {withCalls.length === 0 ? (
          <p class="muted">No model call yet.</p>
        ) : (
          <>
            <label for="usage-run">Run</label>
            <select id="usage-run" value={runId} onChange={(e) => setChosen(e.currentTarget.value)}>
              {[...withCalls].reverse().map((x) => (
                <option key={x.runId} value={x.runId}>
                  {x.runId} ({x.agentName}, {x.status})
                </option>
              ))}
            </select>
            {perRun.data?.turns && <CacheChart calls={perRun.data.turns.map((t) => t.usage)} />}
          </>
        )}
      </section>
    </div>
  );
}
