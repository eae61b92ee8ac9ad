// An evaluation report opened from disk (`report.json` from `cadre eval run`): the verdict, the
// gates with their evidence, the scenario × gate matrix, the per-scenario table and two charts.
// The file is read in the browser; nothing is uploaded.
import { useState } from "preact/hooks";
import type { EvalReport } from "../../model/eval-report.js";
import { EvalCharts } from "./eval-charts.js";
import { EvalTables } from "./eval-tables.js";

export function EvalPage() {
  const [report, setReport] = useState<{ name: string; report: EvalReport } | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const open = async (file: File | undefined) => {
    if (!file) return;
    const { parseEvalReport } = await import("../../model/eval-report-read.js");
    const parsed = parseEvalReport(await file.text());
    if (parsed.ok) {
      setReport({ name: file.name, report: parsed.report });
      setError(undefined);
    } else {
      setError(`${file.name}: ${parsed.error}`);
    }
  };
  return (
    <main
      class="page"
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        void open(e.dataTransfer?.files[0]);
      }}
    >
      <h1>Evaluation report</h1>
      <section class="card wide">
        <label for="report-file">
          Open a report.json (written by <code>cadre eval run</code>; or drop it on this page)
        </label>
        <input
          id="report-file"
          type="file"
          accept=".json,application/json"
          onChange={(e) => void open(e.currentTarget.files?.[0])}
        />
        {error && (
          <p class="alert error" role="alert">
            {error}
          </p>
        )}
      </section>
      {report && (
        <>
          <p class="muted">
            {report.name}, created {report.report.createdAt}
          </p>
          <EvalTables report={report.report} />
          <EvalCharts report={report.report} />
        </>
      )}
    </main>
  );
}
