// The report's figures as tables: summary, gates G1–G5 with evidence, the matrix, the scenarios.
import {
  type EvalReport,
  gateIds,
  SCENARIO_COLUMNS,
  scenarioRow,
  summaryLines,
} from "../../model/eval-report.js";

const mark = (pass: boolean | null) => (pass === null ? "n/a" : pass ? "pass" : "FAIL");
const UNDECIDED = { states: "not enough states", scenarios: "not enough scenarios", samples: "incomplete" };
const gateMark = (g: EvalReport["gates"]["G1"]) =>
  g.pass !== null
    ? mark(g.pass)
    : !g.measured
      ? "not measured"
      : g.undecided
        ? UNDECIDED[g.undecided]
        : "n/a";

export function EvalTables({ report }: { report: EvalReport }) {
  const GATE_IDS = gateIds(report);
  return (
    <>
      <section class="card wide" aria-labelledby="eval-summary-title">
        <h2 id="eval-summary-title">
          Verdict:{" "}
          <span class={`badge ${report.complete ? "ok" : "warn"}`} data-testid="eval-verdict">
            {report.complete
              ? "all gates pass"
              : report.passed
                ? `no gate failed; behaviour ${report.measurement.behaviourMeasured ? "partly undecided" : "not measured"} (${report.measurement.source})`
                : "a gate fails"}
          </span>
        </h2>
        <dl class="facts">
          {summaryLines(report).map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section class="card wide" aria-labelledby="eval-gates-title">
        <h2 id="eval-gates-title">Gates</h2>
        <div class="table-scroll">
          <table data-testid="eval-gates">
            <thead>
              <tr>
                <th scope="col">Gate</th>
                <th scope="col">Result</th>
                <th scope="col">Evidence</th>
              </tr>
            </thead>
            <tbody>
              {GATE_IDS.map((g) => (
                <tr key={g}>
                  <th scope="row">{g}</th>
                  <td
                    class={report.gates[g].pass === null ? undefined : report.gates[g].pass ? "pass" : "fail"}
                  >
                    {gateMark(report.gates[g])}
                  </td>
                  <td>{report.gates[g].evidence}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section class="card wide" aria-labelledby="eval-scenarios-title">
        <h2 id="eval-scenarios-title">Scenarios</h2>
        <div class="table-scroll">
          <table data-testid="eval-scenarios" class="figures" aria-describedby="eval-scenarios-key">
            <thead>
              <tr>
                {SCENARIO_COLUMNS.map((c) => (
                  <th key={c.label} scope="col" title={c.title} class={c.num ? "num" : undefined}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.scenarios.map((s) => (
                <tr key={s.id} title={s.reasons.join("; ") || undefined}>
                  {scenarioRow(s).map((cell, i) =>
                    i === 0 ? (
                      <th key={i} scope="row">
                        {cell}
                      </th>
                    ) : (
                      <td
                        key={i}
                        class={
                          [SCENARIO_COLUMNS[i]?.num ? "num" : "", cell === "FAIL" ? "fail" : ""]
                            .filter(Boolean)
                            .join(" ") || undefined
                        }
                      >
                        {cell}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <dl class="table-key" id="eval-scenarios-key">
          {SCENARIO_COLUMNS.slice(2, -1).map((c) => (
            <div key={c.label}>
              <dt>{c.label}</dt>
              <dd>{c.title}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section class="card wide" aria-labelledby="eval-matrix-title">
        <h2 id="eval-matrix-title">Scenario × gate</h2>
        <div class="table-scroll">
          <table data-testid="eval-matrix">
            <thead>
              <tr>
                <th scope="col">Scenario</th>
                {GATE_IDS.map((g) => (
                  <th key={g} scope="col">
                    {g}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.matrix.map((row) => (
                <tr key={row.scenario}>
                  <th scope="row">{row.scenario}</th>
                  {GATE_IDS.map((g) => (
                    <td
                      key={g}
                      class={row.cells[g].pass === false ? "fail" : undefined}
                      title={row.cells[g].evidence}
                    >
                      {mark(row.cells[g].pass)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
