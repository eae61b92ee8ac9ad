// The company's connectors: kind, models, and readiness as the server computes it — with what is
// missing when one is not ready.
import type { Connector } from "../../api/types.js";

export function Connectors({ connectors }: { connectors: Connector[] }) {
  return (
    <section class="card" aria-labelledby="connectors-title">
      <h2 id="connectors-title">Connectors</h2>
      <ul class="connectors" data-testid="connectors">
        {connectors.map((c) => (
          <li key={c.id}>
            <div>
              <strong>{c.id}</strong> <span class="muted">({c.kind})</span>{" "}
              <span class={`badge ${c.ready ? "ok" : "warn"}`}>{c.ready ? "ready" : "not ready"}</span>
            </div>
            <div class="muted">{c.label}</div>
            <div>Models: {c.enabledModels.join(", ") || "none"}</div>
            {!c.ready && <div class="missing">Missing: {c.missing ?? "unknown"}</div>}
          </li>
        ))}
      </ul>
    </section>
  );
}
