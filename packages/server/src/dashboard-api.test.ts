// What the operator dashboard needs from the API beyond the CLI's routes: the runs of a company,
// usage reports (per company and per run, one entry per model call), and event streams narrowed to
// one run or one kind that still resume exactly with Last-Event-ID.
import { sampleDomainEvent } from "@cadre/model/testing";
import { afterEach, describe, expect, it } from "vitest";
import { feedPredicate } from "./feed/filter.js";
import {
  apiCompany,
  OPERATOR_TOKEN,
  readSse,
  type SseEvent,
  type TestApp,
  testApp,
} from "./testing/harness.js";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const auth = (extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${OPERATOR_TOKEN}`, ...extra },
});

/** A company whose CEO ran team building to the end (hires, strategy filed), and a second run. */
async function companyWithRuns(a: TestApp) {
  const company = await apiCompany(a);
  const first = await a.request("POST", `/api/agents/${company.ceoAgentId}/wake`, {
    json: { trigger: "start_team_building", seed: 3 },
  });
  expect(first.status).toBe(202);
  await a.cadre.wakes.idle();
  const second = await a.request("POST", `/api/agents/${company.ceoAgentId}/wake`, { json: { seed: 3 } });
  expect(second.status).toBe(202);
  await a.cadre.wakes.idle();
  return { ...company, runIds: [first.body.runId as string, second.body.runId as string] };
}

/** Reads an SSE response until `count` events arrived. */
async function take(path: string, count: number, headers: Record<string, string> = {}): Promise<SseEvent[]> {
  const response = await app!.cadre.app.request(path, auth(headers));
  expect(response.status).toBe(200);
  const got: SseEvent[] = [];
  if (count === 0) {
    await response.body?.cancel();
    return got;
  }
  for await (const e of readSse(response.body!)) {
    got.push(e);
    if (got.length === count) break;
  }
  return got;
}

describe("runs and usage routes", () => {
  it("lists a company's runs and reports usage per company, agent, run and model call", async () => {
    app = await testApp();
    const { id, ceoAgentId, runIds } = await companyWithRuns(app);

    const runs = await app.request("GET", `/api/companies/${id}/runs`);
    expect(runs.status).toBe(200);
    expect(runs.body.items.map((r: { id: string }) => r.id)).toEqual(runIds);
    expect(runs.body.items[0]).toMatchObject({
      agentId: ceoAgentId,
      trigger: "start_team_building",
      mode: "team-building",
      status: "done",
      cue: expect.stringContaining("CEO"),
    });

    const usage = await app.request("GET", `/api/companies/${id}/usage`);
    expect(usage.status).toBe(200);
    expect(usage.body.runs.map((r: { runId: string }) => r.runId)).toEqual(runIds);
    const ceo = usage.body.agents.find((a: { agentId: string }) => a.agentId === ceoAgentId);
    expect(ceo).toMatchObject({
      runs: 2,
      usage: { total: expect.any(Number), cost: expect.any(Number), hitRate: expect.any(Number) },
    });
    expect(ceo.usage.total).toBeGreaterThan(0);
    expect(usage.body.usage.total).toBe(ceo.usage.total);

    const perRun = await app.request("GET", `/api/runs/${runIds[0]}/usage`);
    expect(perRun.status).toBe(200);
    const turns = perRun.body.turns as Array<{ turn: number; usage: { total: number; hitRate: number } }>;
    const usageEvents = (await app.store.listRunEvents(runIds[0]!)).filter((e) => e.type === "usage");
    expect(turns.map((t) => t.turn)).toEqual(usageEvents.map((_, i) => i + 1));
    expect(turns.reduce((sum, t) => sum + t.usage.total, 0)).toBe(perRun.body.usage.total);
    // The offline model simulates a prompt cache: the first call writes it, later calls read it.
    expect(turns[0]!.usage.hitRate).toBe(0);
    expect(turns.at(-1)!.usage.hitRate).toBeGreaterThan(0.5);

    expect((await app.request("GET", `/api/runs/run_missing/usage`)).status).toBe(404);
    expect((await app.request("GET", `/api/companies/cmp_missing/runs`)).status).toBe(404);
  });
});

describe("narrowed event streams", () => {
  it("?run= replays one run's rows only, and a reconnect with Last-Event-ID resumes exactly within them", async () => {
    app = await testApp();
    const { id, runIds } = await companyWithRuns(app);
    const feed = await app.store.listFeed(id);
    const ofRun = feed.filter(
      (r) => (r.kind === "agent_event" ? r.event.runId : r.activity.runId) === runIds[0],
    );
    expect(ofRun.length).toBeGreaterThan(20);
    expect(ofRun.length).toBeLessThan(feed.length);

    const all = await take(`/api/companies/${id}/events?run=${runIds[0]}`, ofRun.length);
    expect(all.map((e) => Number(e.id))).toEqual(ofRun.map((r) => r.id));

    const cut = 7;
    const first = all.slice(0, cut);
    const rest = await take(`/api/companies/${id}/events?run=${runIds[0]}`, ofRun.length - cut, {
      "last-event-id": first.at(-1)!.id!,
    });
    expect([...first, ...rest].map((e) => e.id)).toEqual(all.map((e) => e.id));
  });

  it("?kind= keeps one kind, combines with ?run=, and bad values are refused", async () => {
    app = await testApp();
    const { id, runIds } = await companyWithRuns(app);
    const feed = await app.store.listFeed(id);
    const domain = feed.filter((r) => r.kind === "domain_event");
    const got = await take(`/api/companies/${id}/events?kind=domain_event`, domain.length);
    expect(got.map((e) => e.event)).toEqual(domain.map(() => "domain_event"));
    expect(got.map((e) => JSON.parse(e.data).type)).toContain("agent.hired");

    const agentOfSecond = feed.filter((r) => r.kind === "agent_event" && r.event.runId === runIds[1]);
    const narrowed = await take(
      `/api/companies/${id}/events?kind=agent_event&run=${runIds[1]}`,
      agentOfSecond.length,
    );
    expect(narrowed.map((e) => Number(e.id))).toEqual(agentOfSecond.map((r) => r.id));

    for (const bad of ["kind=everything", "run=a%20b", `run=${"x".repeat(65)}`]) {
      const r = await app.cadre.app.request(`/api/companies/${id}/events?${bad}`, auth());
      expect(r.status, bad).toBe(400);
    }
  });

  it("?kind=lifecycle keeps the domain events and each run's first and terminal event, nothing else", async () => {
    app = await testApp();
    const { id, runIds } = await companyWithRuns(app);
    const feed = await app.store.listFeed(id);
    const lifecycle = feed.filter(
      (r) => r.kind === "domain_event" || r.event.seq === 0 || r.event.type === "terminal",
    );
    expect(lifecycle.length).toBeLessThan(feed.length);
    const got = await take(`/api/companies/${id}/events?kind=lifecycle`, lifecycle.length);
    expect(got.map((e) => Number(e.id))).toEqual(lifecycle.map((r) => r.id));
    const agentFrames = got.filter((e) => e.event === "agent_event").map((e) => JSON.parse(e.data));
    // Per run: its first event and its one terminal event.
    expect(agentFrames.map((f) => [f.runId, f.event.type === "terminal" ? "end" : "start"])).toEqual(
      runIds.flatMap((r) => [
        [r, "start"],
        [r, "end"],
      ]),
    );
  });

  it("the predicate keeps everything without a filter and matches domain rows by their run", () => {
    expect(feedPredicate({})).toBeUndefined();
    const keep = feedPredicate({ runId: "r1" })!;
    const activity = (runId: string | null) => ({
      id: 1,
      companyId: "c",
      kind: "domain_event" as const,
      activity: { id: 1, companyId: "c", agentId: null, runId, ...sampleDomainEvent("agent.hired"), at: "" },
    });
    expect(keep(activity("r1"))).toBe(true);
    expect(keep(activity(null))).toBe(false);
    expect(keep(activity("r2"))).toBe(false);
  });
});
