// The company's runs, newest first: who ran, why (trigger), in which mode, how it ended, tokens.
import type { Agent, Run } from "../../api/types.js";
import { formatTime, formatTokens } from "../../model/format.js";
import { href } from "../../route.js";

export function RunsList({ companyId, runs, agents }: { companyId: string; runs: Run[]; agents: Agent[] }) {
  const names = new Map(agents.map((a) => [a.id, a.name]));
  if (runs.length === 0)
    return <p class="muted">No run yet. Start team building from the overview, or wake an agent.</p>;
  return (
    <section class="card wide" aria-labelledby="runs-title">
      <h2 id="runs-title">Runs</h2>
      <div class="table-scroll">
        <table data-testid="runs-table">
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
                  <td>{names.get(r.agentId) ?? r.agentId}</td>
                  <td>{r.trigger.replace(/_/g, " ")}</td>
                  <td>{r.mode}</td>
                  <td>
                    <span
                      class={`badge ${r.status === "done" ? "ok" : r.status === "running" ? "info" : "warn"}`}
                    >
                      {r.status}
                    </span>
                  </td>
                  <td>{formatTime(r.startedAt)}</td>
                  <td class="num">
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
