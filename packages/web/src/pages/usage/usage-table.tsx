// A usage table: the four token counters, their total, the cost and the cache hit rate per row.
import { formatCost, formatPercent, formatTokens } from "../../model/format.js";
import type { UsageRow } from "../../model/usage-series.js";

export function UsageTable({ title, rows, testId }: { title: string; rows: UsageRow[]; testId: string }) {
  const id = `${testId}-title`;
  return (
    <section class="card wide" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div class="table-scroll">
        <table data-testid={testId}>
          <thead>
            <tr>
              <th scope="col">{title === "Per agent" ? "Agent" : "Run"}</th>
              <th scope="col" class="num">
                Input
              </th>
              <th scope="col" class="num">
                Output
              </th>
              <th scope="col" class="num">
                Cache read
              </th>
              <th scope="col" class="num">
                Cache write
              </th>
              <th scope="col" class="num">
                Total
              </th>
              <th scope="col" class="num">
                Cost
              </th>
              <th scope="col" class="num">
                Hit rate
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">
                  {r.label}
                  <div class="muted small">{r.detail}</div>
                </th>
                <td class="num">{formatTokens(r.usage.input)}</td>
                <td class="num">{formatTokens(r.usage.output)}</td>
                <td class="num">{formatTokens(r.usage.cacheRead)}</td>
                <td class="num">{formatTokens(r.usage.cacheWrite)}</td>
                <td class="num">{formatTokens(r.usage.total)}</td>
                <td class="num">{formatCost(r.usage.cost)}</td>
                <td class="num">{r.usage.total === 0 ? "—" : formatPercent(r.usage.hitRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
