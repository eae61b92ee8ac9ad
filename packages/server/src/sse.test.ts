// SSE: a client that disconnects mid-run and reconnects with Last-Event-ID receives every later
// event exactly once; ids are the feed's (one id space for agent and domain events, increasing).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleDomainEvent } from "@cadre/model/testing";
import { openStore, type Store, type StoreQueries } from "@cadre/store";
import { afterEach, describe, expect, it } from "vitest";
import type { InProcessFeedBus } from "./feed/bus.js";
import {
  apiCompany,
  OPERATOR_TOKEN,
  readSse,
  type SseEvent,
  type TestApp,
  testApp,
  testAppOver,
} from "./testing/harness.js";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const auth = (extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...extra },
});

async function connect(
  a: TestApp,
  companyId: string,
  lastEventId?: string,
): Promise<AsyncGenerator<SseEvent>> {
  const response = await a.cadre.app.request(
    `/api/companies/${companyId}/events`,
    auth(lastEventId ? { "last-event-id": lastEventId } : {}),
  );
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
  return readSse(response.body!);
}

/** Holds the store's n-th appendRunEvents call (a run's n-th flush) until released. */
function gateFlush(store: Store, n: number) {
  let calls = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  // A run's flushes go through its lease, each in a transaction: one inside a transaction is held
  // once that transaction has committed (holding it inside would hold the store's one connection).
  const counting = (tx: StoreQueries, hit: () => void): StoreQueries =>
    new Proxy(tx, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop === "appendRunEvents")
          return (...args: Parameters<Store["appendRunEvents"]>) => {
            if (++calls === n) hit();
            return target.appendRunEvents(...args);
          };
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  const gated = new Proxy(store, {
    get(target, prop) {
      if (prop === "appendRunEvents") {
        return async (...args: Parameters<Store["appendRunEvents"]>) => {
          if (++calls === n) {
            reached();
            await released;
          }
          return target.appendRunEvents(...args);
        };
      }
      if (prop === "transaction")
        return (async (fn, options) => {
          let hold = false;
          const result = await target.transaction((tx) => fn(counting(tx, () => (hold = true))), options);
          if (hold) {
            reached();
            await released;
          }
          return result;
        }) as Store["transaction"];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { gated, held, release };
}

describe("company events (SSE)", () => {
  it("a reconnect with Last-Event-ID mid-run receives every later event exactly once", async () => {
    const store = await openStore({ memory: true });
    const gate = gateFlush(store, 3);
    app = testAppOver(store, { store: gate.gated });
    const cadre = app.cadre;
    const { id: companyId, ceoAgentId } = await apiCompany(app);

    const first = await connect(app, companyId);
    const wake = await cadre.app.request(`/api/agents/${ceoAgentId}/wake`, {
      method: "POST",
      ...auth({ "content-type": "application/json" }),
      body: JSON.stringify({ trigger: "start_team_building", seed: 5 }),
    });
    const { runId } = (await wake.json()) as { runId: string };
    const seenFirst: SseEvent[] = [];
    for await (const e of first) {
      seenFirst.push(e);
      if (e.event === "agent_event" && JSON.parse(e.data).event.type === "tool_result") break;
    }
    await gate.held;
    // Mid-run: the run is held at its third flush, and the client has gone.
    expect((await store.getRun(runId))?.status).toBe("running");
    const lastId = seenFirst.at(-1)!.id!;

    const second = await connect(app, companyId, lastId);
    gate.release();
    const seenSecond: SseEvent[] = [];
    for await (const e of second) {
      seenSecond.push(e);
      // The run's terminal event is the last row it stores.
      if (e.event === "agent_event" && JSON.parse(e.data).event.type === "terminal") break;
    }

    const ids = [...seenFirst, ...seenSecond].map((e) => Number(e.id));
    const stored = (await store.listFeed(companyId)).map((f) => f.id);
    expect(ids).toEqual(stored);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]!);
    expect(seenSecond[0]!.id).not.toBe(lastId);
    // Agent events and domain events, interleaved in commit order.
    const kinds = new Set(
      seenSecond.map((e) => (e.event === "domain_event" ? JSON.parse(e.data).type : e.event)),
    );
    expect(kinds).toEqual(new Set(["agent_event", "agent.hired", "approval.filed", "mode.changed"]));
    const terminal = seenSecond.filter(
      (e) => e.event === "agent_event" && JSON.parse(e.data).event.type === "terminal",
    );
    expect(terminal).toHaveLength(1);
    expect(JSON.parse(terminal[0]!.data)).toMatchObject({ runId, event: { status: "done" } });
  });

  it("replays from any id, accepts ?after= when the header cannot be set, and refuses a malformed id", async () => {
    app = await testApp();
    const { id } = await apiCompany(app);
    await app.request("POST", `/api/companies/${id}/agents`, {
      json: {
        name: "CTO",
        role: "CTO",
        description: "Tech.",
        connectorId: "offline",
        model: "offline-scripted-1",
      },
    });
    await app.request("POST", `/api/companies/${id}/approvals`, {
      json: { type: "approve_ceo_strategy", title: "Plan", payload: "Go." },
    });
    const feed = await app.store.listFeed(id);
    expect(feed.map((f) => (f.kind === "domain_event" ? f.activity.type : f.kind))).toEqual([
      "company.created",
      "agent.hired",
      "mode.changed",
      "approval.filed",
      "mode.changed",
    ]);
    const fromHeader = await connect(app, id, String(feed[0]!.id));
    const got: SseEvent[] = [];
    for await (const e of fromHeader) {
      got.push(e);
      if (got.length === 2) break;
    }
    expect(got.map((e) => Number(e.id))).toEqual([feed[1]!.id, feed[2]!.id]);
    expect(JSON.parse(got[0]!.data)).toMatchObject({
      feedId: feed[1]!.id,
      kind: "domain_event",
      type: "agent.hired",
      data: { name: "CTO", via: "http" },
    });
    const viaQuery = await app.cadre.app.request(`/api/companies/${id}/events?after=${feed[1]!.id}`, auth());
    for await (const e of readSse(viaQuery.body!)) {
      expect(Number(e.id)).toBe(feed[2]!.id);
      break;
    }
    for (const bad of ["abc", "-1", "1.5", "1e3"]) {
      const r = await app.cadre.app.request(`/api/companies/${id}/events`, auth({ "last-event-id": bad }));
      expect(r.status, bad).toBe(400);
    }
  });

  it("delivers the same sequence to every subscriber, and writes from another process by polling", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cadre-sse-"));
    const path = join(dir, "cadre.db");
    const a = testAppOver(await openStore({ path }), { limits: { ssePollMs: 20 } }, () =>
      rm(dir, { recursive: true, force: true }),
    );
    app = a;
    const { id } = await apiCompany(a);
    const subscribers = await Promise.all(Array.from({ length: 5 }, () => connect(a, id)));
    // Another process on the same data: its writes do not go through this server's bus.
    const other = await openStore({ path });
    await other.insertActivity({
      companyId: id,
      agentId: null,
      runId: null,
      ...sampleDomainEvent("message.posted"),
    });
    await other.close();
    const sequences = await Promise.all(
      subscribers.map(async (s) => {
        const got: string[] = [];
        for await (const e of s) {
          got.push(`${e.id}:${JSON.parse(e.data).type}`);
          if (got.length === 2) break;
        }
        return got;
      }),
    );
    expect(new Set(sequences.map((s) => s.join()))).toEqual(new Set([sequences[0]!.join()]));
    expect(sequences[0]![1]).toMatch(/:message\.posted$/);
    // Every subscription ends with its client: nothing stays subscribed to the bus.
    const bus = a.cadre.bus as InProcessFeedBus;
    for (let i = 0; i < 100 && bus.size(id) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bus.size(id)).toBe(0);
  });
});
