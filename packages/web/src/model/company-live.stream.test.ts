// Every domain event type end to end, as the dashboard lives it: written through the store's write
// path, heard by the server's live stream (the store's own feed signal: polling is off here),
// framed as SSE, followed by the dashboard's event stream, and applied to the company view.
import type { DomainEventType } from "@cadre/model";
import { createApp } from "@cadre/server";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sampleDomainEvents } from "../../../model/src/testing/domain-events.js";
import { followEvents } from "../api/event-stream.js";
import type { Agent, CompanyView, DomainMessage } from "../api/types.js";
import { applyDomainEvent, type CompanySnapshot, type Resource } from "./company-live.js";

const TOKEN = "stream-test-operator-token-0123";

/** What the company view re-reads on each type (the runs too whenever the event names its run). */
const REREAD: Record<DomainEventType, Resource[]> = {
  "company.created": ["company"],
  "mode.changed": ["company"],
  "approval.filed": ["approvals", "company"],
  "approval.decided": ["approvals", "company"],
  "connector.added": ["connectors", "company"],
  "connector.removed": ["connectors", "company"],
  "message.posted": ["messages"],
  "agent.hired": ["agents"],
  "agent.terminated": ["agents"],
  "agent.model_changed": ["agents", "connectors"],
  "agent.session_reset": [],
  "task.created": ["tasks", "runs"],
  "task.assigned": ["tasks", "runs"],
  "task.updated": ["tasks", "runs"],
  "task.commented": ["tasks", "runs"],
  "task.reviewed": ["tasks", "runs"],
  "task.review_escalated": ["tasks", "runs"],
  "task.checked_out": ["tasks", "runs"],
  "task.released": ["tasks", "runs"],
  "wake.requested": [],
  "wake.cancelled": [],
  "wake.dropped": [],
  "wake.returned": [],
  "schedule.set": [],
  "schedule.removed": [],
  "schedule.skipped": [],
  "run.stopped": ["runs"],
  "budget.changed": ["budget", "company"],
  "budget.warned": ["budget"],
  "budget.exhausted": ["budget"],
  "usage.reconciled": ["budget"],
  "model.drifted": [],
};

const ceo: Agent = {
  id: "ceo",
  companyId: "co1",
  name: "CEO",
  role: "CEO",
  description: "",
  department: null,
  connectorId: "offline",
  model: "offline-model",
  reportsTo: null,
  isCeo: true,
  status: "active",
  via: "system",
  createdAt: "",
};
const company: CompanyView = {
  id: "co1",
  name: "Acme",
  goal: "",
  settings: { maxTeamSize: 8, requireHireApproval: false, profile: "semantic" },
  createdAt: "",
  ceoAgentId: "ceo",
  ceoMode: "team-building",
  ceoModeReason: "no reports",
  toolsInMode: [],
  toolsOffered: [],
  connectors: [],
  operatorActions: [],
};

/** The app as the browser's fetch: aborting the request ends its body (and the server's stream). */
const appFetch = (async (url: string, init: RequestInit = {}) => {
  const response = await cadre.app.request(url, init);
  const source = response.body?.getReader();
  if (!source) return response;
  const aborted = new Promise<{ done: true }>((resolve) =>
    init.signal?.addEventListener("abort", () => resolve({ done: true }), { once: true }),
  );
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await Promise.race([source.read(), aborted]);
      if (next.done) {
        controller.close();
        await source.cancel();
      } else controller.enqueue(next.value);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}) as typeof fetch;

let store: Store;
let cadre: ReturnType<typeof createApp>;
beforeEach(async () => {
  store = await openStore({ memory: true });
  await store.insertCompany({ id: "co1", name: "Acme", goal: "", settings: company.settings });
  await store.insertConnector({
    companyId: "co1",
    id: "offline",
    kind: "offline",
    label: "Offline",
    enabledModels: ["offline-model"],
    config: {},
  });
  const { createdAt: _, companyId: __, ...row } = ceo;
  await store.insertAgent({ ...row, companyId: "co1" });
  // No polling: only the store's feed signal can wake the stream.
  cadre = createApp({ store, operatorToken: TOKEN, env: {}, log: () => {}, limits: { ssePollMs: 600_000 } });
});
afterEach(async () => {
  await cadre.shutdown();
  await store.close();
});

describe("domain events, from the store to the dashboard", () => {
  it("arrives live with its data whole, and changes the company view as its type says", async () => {
    const events = sampleDomainEvents();
    const got: DomainMessage[] = [];
    const stop = new AbortController();
    let live!: () => void;
    const streaming = new Promise<void>((resolve) => (live = resolve));
    const following = followEvents({
      path: "/api/companies/co1/events?kind=domain_event",
      token: TOKEN,
      fetch: appFetch,
      signal: stop.signal,
      onStatus: (status) => status === "live" && live(),
      onMessages: (messages) => {
        for (const m of messages) if (m.kind === "domain_event") got.push(m);
        if (got.length >= events.length) stop.abort();
      },
    });
    await streaming;
    // Half one by one, half in one transaction: each commit is heard.
    const half = Math.ceil(events.length / 2);
    for (const event of events.slice(0, half))
      await store.insertActivity({ companyId: "co1", agentId: null, runId: null, ...event });
    await store.transaction((tx) =>
      tx.insertActivities(
        events.slice(half).map((e) => ({ companyId: "co1", agentId: null, runId: null, ...e })),
      ),
    );
    await following;

    expect(got.map(({ type, data }) => ({ type, data }))).toEqual(events);
    let snap: CompanySnapshot = { company, agents: [ceo] };
    for (const m of got) {
      const effect = applyDomainEvent(snap, m);
      expect([...effect.refetch].sort(), m.type).toEqual([...REREAD[m.type]].sort());
      snap = effect.snapshot;
      if (m.type === "agent.hired")
        expect(snap.agents.find((a) => a.id === m.data.agentId)).toMatchObject({
          name: m.data.name,
          role: m.data.role,
          department: m.data.department,
          reportsTo: m.data.hiredBy,
          status: "active",
        });
      if (m.type === "agent.terminated")
        expect(snap.agents.find((a) => a.id === m.data.agentId)?.status).toBe("terminated");
      if (m.type === "mode.changed")
        expect(snap.company).toMatchObject({
          ceoMode: m.data.to,
          ceoModeReason: m.data.reason,
          toolsPending: true,
        });
    }
  });
});
