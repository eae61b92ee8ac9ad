// How a connector reads in the terminal: one line with its readiness — what was checked, when, and
// what failed — then its models and its (secret-free) config. Rendered from the API's own view, so
// `cadre connectors list`, `cadre company show` and their --server forms say the same thing.
import type { ConnectorView } from "@cadre/company";

type Probe = ConnectorView["probes"][number];

function probeWords(p: Probe): string {
  const what = p.kind === "endpoint" ? `endpoint ${p.target}` : p.target;
  const at = p.checkedAt ? `checked ${p.checkedAt}` : "assumed, not checked";
  const latency = p.latencyMs !== null ? ` in ${p.latencyMs} ms` : "";
  return `${what} ${p.kind === "endpoint" ? "answered" : "found"}${latency} (${at}${p.detail ? `; ${p.detail}` : ""})`;
}

/** "ready — endpoint … answered in 3 ms (checked …)", or "NOT READY: what is missing (last check failed at …)". */
export function readinessWords(c: Pick<ConnectorView, "ready" | "missing" | "probes">): string {
  if (c.ready) return c.probes.length > 0 ? `ready — ${c.probes.map(probeWords).join("; ")}` : "ready";
  const failedAt = c.probes.find((p) => p.status === "failed")?.checkedAt;
  return `NOT READY: ${c.missing ?? "unknown"}${failedAt ? ` (last check failed at ${failedAt})` : ""}`;
}

/** "digest 46e0c10c039e": a fingerprint's kind and first characters. */
const shortPrint = (fp: string) => fp.replace(/^([a-z]+):(.{0,12}).*$/, "$1 $2");

function modelWords(c: ConnectorView): string {
  return c.models
    .map((m) => {
      const replaced = m.replacedBy
        ? `; REPLACED since declared: ${shortPrint(m.fingerprint ?? "")} then, ${shortPrint(m.replacedBy)} now (a drift)`
        : "";
      return `${m.id}${m.contextWindow !== null ? ` (${m.contextWindow} tokens${m.declared ? ", declared" : ""}${replaced})` : " (not routable)"}`;
    })
    .join(", ");
}

/** The connector as `cadre connectors list` prints it (and company show, indented). */
export function connectorLines(c: ConnectorView, indent = ""): string {
  const config = Object.keys(c.config).length > 0 ? `\n${indent}    config: ${JSON.stringify(c.config)}` : "";
  return `${indent}${c.id} (${c.kind}) ${readinessWords(c)}\n${indent}    models: ${modelWords(c) || "none"}${config}\n`;
}
