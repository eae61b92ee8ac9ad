// The company's connectors at a glance: kind, models, and readiness as the server measured it —
// what is missing when one is not ready, and when each probe last ran. The Connectors tab adds,
// tests and removes them.
import type { Connector } from "../../api/types.js";
import { href } from "../../route.js";
import { Readiness, ReadinessBadge } from "./readiness.js";

export function Connectors({ connectors }: { connectors: Connector[] }) {
  const companyId = connectors[0]?.companyId;
  return (
    <section class="card" aria-labelledby="connectors-title">
      <h2 id="connectors-title">Connectors</h2>
      <ul class="connectors" data-testid="connectors">
        {connectors.map((c) => (
          <li key={c.id}>
            <div>
              <strong>{c.id}</strong> <span class="muted">({c.kind})</span> <ReadinessBadge connector={c} />
            </div>
            <div class="muted">{c.label}</div>
            <div>Models: {c.enabledModels.join(", ") || "none"}</div>
            <Readiness connector={c} />
          </li>
        ))}
      </ul>
      {companyId && (
        <p>
          <a href={href({ page: "company", companyId, tab: "connectors" })}>Manage connectors</a>
        </p>
      )}
    </section>
  );
}
