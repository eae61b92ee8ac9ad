// What each domain event does to the company view at once, and what it has re-read.
import { describe, expect, it } from "vitest";
import type { DomainEvent, DomainEventData } from "@cadre/model";
import { SAMPLE_DOMAIN_EVENTS } from "../../../model/src/testing/domain-events.js";
import type { Agent, CompanyView, DomainMessage } from "../api/types.js";
import { applyDomainEvent } from "./company-live.js";

const company: CompanyView = {
  id: "c",
  name: "Co",
  goal: "",
  settings: { maxTeamSize: 8, requireHireApproval: false, profile: "semantic" },
  createdAt: "",
  ceoAgentId: "ceo",
  ceoMode: "team-building",
  ceoModeReason: "no reports",
  toolsInMode: ["hire_agent"],
  toolsOffered: ["hire_agent", "file_approval"],
  connectors: [],
  operatorActions: ["start_team_building"],
};
const ceo: Agent = {
  id: "ceo",
  companyId: "c",
  name: "CEO",
  role: "CEO",
  description: "",
  department: null,
  connectorId: "offline",
  model: "m",
  reportsTo: null,
  isCeo: true,
  status: "active",
  via: "system",
  createdAt: "",
};
const msg = (event: DomainEvent, runId: string | null = "run_1"): DomainMessage => ({
  feedId: 1,
  kind: "domain_event",
  agentId: null,
  runId,
  at: "2026-01-01T00:00:00Z",
  ...event,
});
const sample = <T extends DomainEvent["type"]>(type: T, over: Partial<DomainEventData<T>> = {}) =>
  ({ type, data: { ...SAMPLE_DOMAIN_EVENTS[type], ...over } }) as DomainEvent;

describe("applyDomainEvent", () => {
  it("has the budget views re-read when a budget is changed, warned or stops a run (not only when a run ends)", () => {
    for (const type of ["budget.warned", "budget.exhausted", "usage.reconciled"] as const) {
      const effect = applyDomainEvent({ company, agents: [ceo] }, msg(sample(type), null));
      expect([...effect.refetch], type).toEqual(["budget"]);
    }
  });

  it("re-reads the budget and the company (whose settings hold the prices) when a budget or price is set", () => {
    const effect = applyDomainEvent(
      { company, agents: [ceo] },
      msg(sample("budget.changed", { change: { price: { model: "m" } } }), null),
    );
    expect([...effect.refetch].sort()).toEqual(["budget", "company"]);
  });

  it("adds a hire to the org chart at once, under the agent that hired it, and only once", () => {
    const hired = msg(sample("agent.hired", { agentId: "a1", name: "CTO", model: "m" }));
    const once = applyDomainEvent({ company, agents: [ceo] }, hired);
    expect(once.snapshot.agents).toHaveLength(2);
    expect(once.snapshot.agents[1]).toMatchObject({
      id: "a1",
      name: "CTO",
      reportsTo: "ceo",
      department: "engineering",
      via: "tool",
      status: "active",
    });
    expect([...once.refetch].sort()).toEqual(["agents", "runs"]);
    const twice = applyDomainEvent(once.snapshot, hired);
    expect(twice.snapshot.agents).toHaveLength(2);
  });

  it("moves the mode with its reason, and has approvals re-read when one is filed or decided", () => {
    const moved = applyDomainEvent(
      { company, agents: [ceo] },
      msg(sample("mode.changed", { to: "awaiting-approval", reason: "the latest strategy is pending" })),
    );
    expect(moved.snapshot.company).toMatchObject({
      ceoMode: "awaiting-approval",
      ceoModeReason: "the latest strategy is pending",
      toolsPending: true,
    });
    expect(moved.refetch.has("company")).toBe(true);
    expect(
      applyDomainEvent({ company, agents: [ceo] }, msg(sample("approval.decided"), null)).refetch,
    ).toEqual(new Set(["approvals", "company"]));
  });

  it("marks a terminated agent and leaves the snapshot itself untouched by events it does not show, or does not know", () => {
    const ended = applyDomainEvent(
      { company, agents: [ceo, { ...ceo, id: "a1", isCeo: false }] },
      msg(sample("agent.terminated", { agentId: "a1" })),
    );
    expect(ended.snapshot.agents[1]!.status).toBe("terminated");
    const snap = { company, agents: [ceo] };
    const other = applyDomainEvent(snap, msg(sample("wake.requested"), null));
    expect(other.snapshot).toBe(snap);
    expect(other.refetch.size).toBe(0);
    // A type this dashboard does not know yet (a newer server's) changes nothing and does not throw.
    const newer = { type: "note.added", data: {} } as unknown as DomainEvent;
    expect(applyDomainEvent(snap, msg(newer, null)).snapshot).toBe(snap);
  });
});
