// The company's runs, newest first: who ran, why (trigger), in which mode, how it ended, tokens.
// At phone width each run is a stacked card (label: value), never a table scrolled sideways.
import type { Agent, Run } from "../../api/types.js";
import { formatTime, formatTokens } from "../../model/format.js";
import { href } from "../../route.js";
import { useState } from "preact/hooks";

export function RunsList({
  companyId,
  runs: all,
  agents,
}: {
  companyId: string;
  runs: Run[];
  agents: Agent[];
}) {
  const names = new Map(agents.map((a) => [a.id, a.name]));
  const [failedOnly, setFailedOnly] = useState(false);
  if (all.length === 0)
    return <p class="muted">No run yet. Start team building from the overview, or wake an agent.</p>;
  const runs = failedOnly ? all.filter((r) => r.status === "failed") : all;
  return (
    <section class="card wide" aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      <label>
        <input
          type="checkbox"
          data-testid="failed-only"
          checked={failedOnly}
          onChange={(e) => setFailedOnly(e.currentTarget.checked)}
        />{" "}
        Failed runs only
      </label>
      {failedOnly && runs.length === 0 && <p class="muted">No run failed.</p>}
      <div class="table-scroll">
        <table data-testid="runs-table" class="stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Agent</th>
              <th scope="col">Trigger</th>
              <th scope="col">Mode</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col" class="num">
                Tokens
              </th>
            </tr>
          </thead>
          <tbody>
            {[...runs].reverse().map((r) => {
              const u = r.usage;
              return (
                <tr key={r.id}>
                  <th scope="row">
                    <a href={href({ page: "run", companyId, runId: r.id })}>{r.id}</a>
                  </th>
                  <td data-label="Agent">{names.get(r.agentId) ?? r.agentId}</td>
                  <td data-label="Trigger">{r.trigger.replace(/_/g, " ")}</td>
                  <td data-label="Mode">{r.mode}</td>
                  <td data-label="Status">
                    <span
                      class={`badge ${r.status === "done" ? "ok" : r.status === "running" ? "info" : "warn"}`}
                    >
                      {r.status}
                    </span>
                  </td>
                  <td data-label="Started">{formatTime(r.startedAt)}</td>
                  <td class="num" data-label="Tokens">
                    {formatTokens(u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
