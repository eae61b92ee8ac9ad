// The company's audit log: every write by anyone — an operator by name, an agent, the system —
// with what it acted on and what changed, oldest first; filtered by who, exported as JSON Lines.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { useResource } from "../../hooks/use-resource.js";
import { formatTime } from "../../model/format.js";
import { jsonLines } from "../../model/why-chain.js";

export function AuditLog({ api, companyId }: { api: Api; companyId: string }) {
  const [actor, setActor] = useState("");
  const query = { limit: "500", ...(actor.trim() ? { actor: actor.trim() } : {}) };
  const audit = useResource(api, "GET /api/companies/{id}/audit", { params: { id: companyId }, query });
  const rows = audit.data?.items ?? [];
  const exportRows = () => {
    const url = URL.createObjectURL(new Blob([jsonLines(rows)], { type: "application/x-ndjson" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `audit-${companyId}.jsonl`;
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section class="card wide" aria-labelledby="audit-title">
      <h2 id="audit-title">Audit log</h2>
      <p class="muted">Every write, by whom, in the transaction that made it. Oldest first.</p>
      <div class="actions">
        <label for="audit-actor">Who</label>
        <input
          id="audit-actor"
          placeholder="an operator, an agent, or system"
          value={actor}
          onChange={(e) => setActor(e.currentTarget.value)}
        />
        <button type="button" disabled={rows.length === 0} onClick={exportRows}>
          Export JSON Lines
        </button>
      </div>
      {audit.error && (
        <p class="alert error" role="alert">
          {audit.error}
        </p>
      )}
      {audit.data && rows.length === 0 && <p class="muted">No audited write matches.</p>}
      {rows.length > 0 && (
        <div class="table-scroll">
          <table data-testid="audit-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">On</th>
                <th scope="col">Change</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id}>
                  <td>{formatTime(r.at)}</td>
                  <td>{r.actorType === "agent" ? `${r.actorName} (agent)` : r.actorName}</td>
                  <td>{r.action}</td>
                  <td>{r.target}</td>
                  <td>{r.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {audit.data?.nextCursor && <p class="muted">Showing the first 500; `cadre audit` lists them all.</p>}
    </section>
  );
}
