// The overview's notice of model drifts (MC-6): an agent's endpoint served another model than the
// one it is declared on, or replaced the model under its id (a changed digest). Each agent's latest
// drift is named with the declared and the served model, when, and whether the company refused it
// (settings.onModelDrift); calls on a drifted model are priced unknown. Re-read as runs end.
import { useEffect } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { useResource } from "../../hooks/use-resource.js";
import { driftText } from "../../model/drift-text.js";
import { formatTime } from "../../model/format.js";
import { href } from "../../route.js";

export function DriftNotice({
  api,
  companyId,
  runsVersion,
}: {
  api: Api;
  companyId: string;
  runsVersion: string;
}) {
  const report = useResource(api, "GET /api/companies/{id}/model-drifts", { params: { id: companyId } });
  const { reload } = report;
  useEffect(() => reload(), [runsVersion, reload]);
  const items = report.data?.items ?? [];
  if (items.length === 0) return null;
  // The newest drift of each agent (the list is newest first).
  const latest = items.filter((d, i) => items.findIndex((e) => e.agentId === d.agentId) === i);
  return (
    <div class="alert wide warn drift-notice" role="status" data-testid="drift-notice">
      <strong>Model drift</strong> — calls on a drifted model are priced unknown.
      <ul>
        {latest.map((d) => (
          <li key={`${d.agentId}:${d.at}`} data-testid="drift-item">
            <strong>{d.agentName ?? "An agent"}</strong>: {driftText(d)}, {formatTime(d.at)}
            {d.policy === "refuse" ? " — refused: the run was stopped" : ""}
            {d.runId && (
              <>
                {" "}
                <a href={href({ page: "run", companyId, runId: d.runId })}>the run</a>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
