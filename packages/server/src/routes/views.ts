// What the API answers for each record. Stored rows pass through as they are (they hold no secret);
// connectors add their readiness, computed now, and never echo anything that looks like a secret.
import { type CompanyState, isSecretKey, MODE_TOOLS, readiness } from "@cadre/company";
import { type UsageCounters, usageCounters } from "@cadre/model";
import type { CompanyRow, ConnectorRow, RunRow } from "@cadre/store";

export function connectorView(c: ConnectorRow, env: NodeJS.ProcessEnv) {
  const config = Object.fromEntries(
    Object.entries(c.config).map(([k, v]) => [k, isSecretKey(k) ? "[redacted]" : v]),
  );
  const r = readiness(c, env);
  return {
    companyId: c.companyId,
    id: c.id,
    kind: c.kind,
    label: c.label,
    enabledModels: c.enabledModels,
    config,
    ready: r.ready,
    ...(r.missing ? { missing: r.missing } : {}),
    createdAt: c.createdAt,
  };
}

export function companyView(company: CompanyRow, state: CompanyState) {
  return {
    ...company,
    ceoAgentId: state.ceo.id,
    ceoMode: state.mode,
    ceoModeReason: state.modeReason,
    toolsInMode: MODE_TOOLS[state.mode],
  };
}

/** A run as the API has always sent it: its usage under the counters' documented names. */
export type RunView = Omit<RunRow, "usage"> & { usage: UsageCounters };

export function runView(run: RunRow): RunView {
  return { ...run, usage: usageCounters(run.usage) };
}
