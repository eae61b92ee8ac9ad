// A usage table: the four token counters, their total, the cost and the cache hit rate per row.
// At phone width each row is a stacked card (label: value), never a table scrolled sideways.
import { formatCost, formatPercent, formatTokens } from "../../model/format.js";
import type { UsageRow } from "../../model/usage-series.js";

export function UsageTable({ title, rows, testId }: { title: string; rows: UsageRow[]; testId: string }) {
  const id = `${testId}-title`;
  return (
    <section class="card wide" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <div class="table-scroll">
        <table data-testid={testId} class="stack-on-phone">
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
                <td class="num" data-label="Input">
                  {formatTokens(r.usage.input)}
                </td>
                <td class="num" data-label="Output">
                  {formatTokens(r.usage.output)}
                </td>
                <td class="num" data-label="Cache read">
                  {formatTokens(r.usage.cacheRead)}
                </td>
                <td class="num" data-label="Cache write">
                  {formatTokens(r.usage.cacheWrite)}
                </td>
                <td class="num" data-label="Total">
                  {formatTokens(r.usage.total)}
                </td>
                <td class="num" data-label="Cost">
                  {formatCost(r.usage.cost)}
                </td>
                <td class="num" data-label="Hit rate">
                  {r.usage.total === 0 ? "—" : formatPercent(r.usage.hitRate)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
