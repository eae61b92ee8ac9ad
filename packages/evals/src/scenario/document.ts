// A Scenario back in its file form (the inverse of parseScenario), so a recording can keep the
// exact state it was recorded against and read it back through the same validation.
import type { Scenario } from "./types.js";

export function toScenarioDocument(s: Scenario): Record<string, unknown> {
  return {
    schemaVersion: s.schemaVersion,
    id: s.id,
    title: s.title,
    ...(s.description ? { description: s.description } : {}),
    expectMode: s.expectMode,
    company: {
      name: s.company.name,
      goal: s.company.goal,
      ...(Object.keys(s.company.settings).length > 0 ? { settings: s.company.settings } : {}),
    },
    connectors: s.connectors.map((c) => ({
      id: c.id,
      kind: c.kind,
      ready: c.ready,
      enabledModels: c.enabledModels,
      ...(c.baseUrl ? { baseUrl: c.baseUrl } : {}),
    })),
    ceo: { connectorId: s.ceoConnectorId },
    team: s.team.map((m) => ({
      name: m.name,
      role: m.role,
      description: m.description,
      ...(m.department ? { department: m.department } : {}),
      connectorId: m.connectorId,
      model: m.model,
      status: m.status,
      via: m.via,
    })),
    approvals: s.approvals.map((a) => ({
      type: a.type,
      title: a.title,
      payload: a.payload,
      status: a.status,
      ...(a.note !== null ? { note: a.note } : {}),
    })),
    ...(s.trigger !== undefined ? { trigger: s.trigger } : {}),
    ...(s.captured !== undefined ? { captured: s.captured } : {}),
  };
}
