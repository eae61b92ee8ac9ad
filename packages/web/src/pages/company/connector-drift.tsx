// A connector's model drifts on the Connectors tab (MC-6), as the overview's notice names them:
// a model its last readiness check found replaced under its id (the endpoint offers another
// fingerprint than when it was declared), and the newest drift a run saw for each of its models
// (another model served, or the declared one replaced), with when, which agent and the run. Says
// what the company does about it (settings.onModelDrift) and that such calls are priced unknown.
import type { Connector, ModelDrift } from "../../api/types.js";
import { driftText, replacedText } from "../../model/drift-text.js";
import { formatTime } from "../../model/format.js";
import { href } from "../../route.js";

/** The connector's drifts worth showing: each model replaced now, and the newest of each drift runs saw. */
export function connectorDrifts(connector: Connector, drifts: readonly ModelDrift[]) {
  const replaced = connector.models.flatMap((m) =>
    m.fingerprint !== undefined && m.replacedBy !== undefined
      ? [{ model: m.id, fingerprint: { declared: m.fingerprint, served: m.replacedBy } }]
      : [],
  );
  // A run's replaced model that the last readiness check finds replaced still is said once, as now.
  const mine = drifts.filter(
    (d) => d.connectorId === connector.id && !(d.fingerprint && replaced.some((r) => r.model === d.declared)),
  );
  // Newest first: the first of each declared model and what it became is its latest.
  const key = (d: ModelDrift) => `${d.declared}\n${d.fingerprint ? d.fingerprint.served : d.served}`;
  const seen = mine.filter((d, i) => mine.findIndex((e) => key(e) === key(d)) === i);
  return { replaced, seen };
}

export function DriftBadge({ connector, drifts }: { connector: Connector; drifts: readonly ModelDrift[] }) {
  const { replaced, seen } = connectorDrifts(connector, drifts);
  if (replaced.length + seen.length === 0) return null;
  return <span class="badge warn">model drift</span>;
}

export function ConnectorDrift({
  connector,
  drifts,
  policy,
}: {
  connector: Connector;
  drifts: readonly ModelDrift[];
  policy: "warn" | "refuse";
}) {
  const { replaced, seen } = connectorDrifts(connector, drifts);
  if (replaced.length + seen.length === 0) return null;
  return (
    <div class="alert warn connector-drift" role="status" data-testid="connector-drift">
      <strong>Model drift</strong> — calls on a drifted model are priced unknown;{" "}
      {policy === "refuse"
        ? "this company refuses them: a run on a drifted model is stopped."
        : "this company warns and goes on (it can refuse them instead)."}
      <ul>
        {replaced.map((r) => (
          <li key={`replaced:${r.model}`} data-testid="connector-drift-item">
            {replacedText(r.model, r.fingerprint)}, found by its last readiness check
          </li>
        ))}
        {seen.map((d) => (
          <li key={`seen:${d.declared}:${d.at}`} data-testid="connector-drift-item">
            {driftText(d)}, {formatTime(d.at)}
            {d.agentName ? ` (${d.agentName})` : ""}
            {d.policy === "refuse" ? " — refused: the run was stopped" : ""}
            {d.runId && (
              <>
                {" "}
                <a href={href({ page: "run", companyId: connector.companyId, runId: d.runId })}>the run</a>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
