// Record builders and a controllable clock for the contract suite.
import type { CompanySettings, DomainEvent, DomainEventType } from "@cadre/model";
import { sampleDomainEvent } from "@cadre/model/testing";
import { vi } from "vitest";
import type {
  ActivityRefs,
  NewActivity,
  NewAgent,
  NewApproval,
  NewCompany,
  NewConnector,
  NewRun,
  NewRunEvent,
  Store,
} from "../types.js";

/** The suite's view of the store under test: a getter, since each test opens a fresh one. */
export type GetStore = () => Store;

export const settings: CompanySettings = { maxTeamSize: 5, requireHireApproval: true, profile: "semantic" };

export const company = (id = "co1", over: Partial<NewCompany> = {}): NewCompany => ({
  id,
  name: `Company ${id}`,
  goal: "Ship a product",
  settings,
  ...over,
});

export const connector = (
  companyId = "co1",
  id = "offline",
  over: Partial<NewConnector> = {},
): NewConnector => ({
  companyId,
  id,
  kind: "offline",
  label: "Offline",
  enabledModels: ["offline-1", "offline-2"],
  config: {
    seed: 42,
    nested: { baseUrl: "http://localhost:1234", envVars: ["A_KEY"] },
    flag: false,
    none: null,
  },
  modelFingerprints: {},
  ...over,
});

export const agent = (id: string, over: Partial<NewAgent> = {}): NewAgent => ({
  id,
  companyId: "co1",
  name: `Agent ${id}`,
  role: "Engineer",
  description: "Builds things.",
  department: "engineering",
  connectorId: "offline",
  model: "offline-1",
  reportsTo: null,
  isCeo: false,
  status: "active",
  via: "tool",
  ...over,
});

export const approval = (id: string, over: Partial<NewApproval> = {}): NewApproval => ({
  id,
  companyId: "co1",
  type: "approve_ceo_strategy",
  title: `Strategy ${id}`,
  payload: "Plan:\n1. Hire\n2. Build",
  filedByAgentId: "ceo",
  via: "tool",
  ...over,
});

export const run = (id: string, over: Partial<NewRun> = {}): NewRun => ({
  id,
  companyId: "co1",
  agentId: "ceo",
  trigger: "start_team_building",
  mode: "team-building",
  profile: "semantic",
  cue: "You are the CEO. Your team is currently empty.",
  ...over,
});

export const runEvent = (runId: string, seq: number, over: Partial<NewRunEvent> = {}): NewRunEvent => ({
  runId,
  companyId: "co1",
  seq,
  type: "text",
  data: { text: `event ${seq}` },
  ...over,
});

/** An activity of company "co1": the sample event of `type` (@cadre/model/testing), its refs overridable. */
export const activity = (
  type: DomainEventType,
  over: Partial<ActivityRefs> & { data?: unknown } = {},
): NewActivity => {
  const { data, ...refs } = over;
  const event = sampleDomainEvent(type);
  return {
    companyId: "co1",
    agentId: null,
    runId: null,
    ...refs,
    // A test's own data is that type's data by its word (the store checks it).
    ...(data !== undefined ? ({ ...event, data } as DomainEvent) : event),
  };
};

/** An activity carrying any JSON (a budget change's fields are free-form): for the JSON round trips. */
export const jsonActivity = (json: Record<string, unknown>, over: Partial<ActivityRefs> = {}): NewActivity =>
  activity("budget.changed", { ...over, data: { scope: "company", budgetAgentId: null, change: json } });

/** Company "co1" with connector "offline" and its CEO "ceo": what most tests start from. */
export async function seed(store: Store, companyId = "co1"): Promise<void> {
  await store.insertCompany(company(companyId));
  await store.insertConnector(connector(companyId));
  await store.insertAgent(
    agent(companyId === "co1" ? "ceo" : `ceo-${companyId}`, { companyId, isCeo: true, role: "CEO" }),
  );
}

/** Freezes the clock the store reads timestamps from (only Date is faked; timers keep running). */
export function setClock(iso: string): void {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
}
