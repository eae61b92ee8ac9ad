// A connector's readiness as the operator reads it: ready or not, what is missing, and for each
// probe what was checked, when it was last checked, and what failed — the server's own words.
import type { Connector } from "../../api/types.js";
import { formatTime } from "../../model/format.js";

type Probe = Connector["probes"][number];

function probeText(p: Probe): string {
  const what = p.kind === "endpoint" ? `Endpoint ${p.target}` : p.target;
  if (p.status === "unchecked") return `${what}: not checked yet`;
  if (p.status === "ok")
    return `${what} ${p.kind === "endpoint" ? "answered" : "found"}${p.latencyMs !== null ? ` in ${p.latencyMs} ms` : ""}`;
  return `Last check failed: ${p.error ?? "unknown reason"}`;
}

export function ReadinessBadge({ connector }: { connector: Pick<Connector, "ready"> }) {
  return (
    <span class={`badge ${connector.ready ? "ok" : "warn"}`}>{connector.ready ? "ready" : "not ready"}</span>
  );
}

export function Readiness({ connector }: { connector: Connector }) {
  return (
    <div class="readiness" data-testid="readiness">
      {/* A probe that failed or never ran says it below; otherwise what is missing is the settings'. */}
      {!connector.ready && connector.probes.every((p) => p.status === "ok") && (
        <div class="missing">Missing: {connector.missing ?? "unknown"}</div>
      )}
      {connector.probes.map((p, i) => (
        <div key={i} class={p.status === "failed" ? "missing" : "muted"} data-testid="probe">
          {probeText(p)}
          {p.checkedAt && (
            <>
              {" "}
              — checked <time dateTime={p.checkedAt}>{formatTime(p.checkedAt)}</time>
            </>
          )}
        </div>
      ))}
    </div>
  );
}
