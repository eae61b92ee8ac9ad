// An agent's event stream lives only as long as its credential: revoking the key it was opened
// with, or removing its agent, ends it at once, and nothing committed afterwards reaches it — also
// when the revocation is made by another process (the stream checks before each page it writes).
import { afterEach, describe, expect, it } from "vitest";
import {
  apiCompany,
  apiKey,
  HIRE,
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

async function open(a: TestApp, companyId: string, token: string) {
  const response = await a.cadre.app.request(`/api/companies/${companyId}/events?kind=domain_event`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status).toBe(200);
  return readSse(response.body!);
}

/** Reads until the event that satisfies `until` (leaving the stream open); returns what came. */
async function readUntil(stream: AsyncGenerator<SseEvent>, until: (e: SseEvent) => boolean) {
  const seen: SseEvent[] = [];
  for (;;) {
    const next = await stream.next();
    if (next.done)
      throw new Error(`the stream ended before the awaited event; it sent ${JSON.stringify(seen)}`);
    seen.push(next.value);
    if (until(next.value)) return seen;
  }
}

/** Reads to the end of the stream. */
async function rest(stream: AsyncGenerator<SseEvent>): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  for (let next = await stream.next(); !next.done; next = await stream.next()) seen.push(next.value);
  return seen;
}

const hired = (name: string) => (e: SseEvent) =>
  e.event === "domain_event" &&
  JSON.parse(e.data).type === "agent.hired" &&
  JSON.parse(e.data).data?.name === name;

/** The feed's last id: every event after it was committed later. */
async function lastFeedId(a: TestApp, companyId: string): Promise<number> {
  return (await a.store.listFeed(companyId)).at(-1)?.id ?? 0;
}

/** Events of the feed (not the stream's own error frame) committed after `id`. */
const laterThan = (events: SseEvent[], id: number) =>
  events.filter((e) => e.event === "domain_event" && Number(e.id) > id);

async function hire(a: TestApp, companyId: string, name: string) {
  const r = await a.request("POST", `/api/companies/${companyId}/agents`, {
    json: { ...HIRE, name, role: name },
  });
  expect(r.status).toBe(201);
}

describe("an agent's event stream after its credential goes", () => {
  it("ends when its key is revoked, and delivers nothing committed afterwards", async () => {
    app = await testApp();
    const { id, ceoAgentId } = await apiCompany(app);
    const token = await apiKey(app, ceoAgentId);
    const keyId = (await app.request("GET", `/api/agents/${ceoAgentId}/keys`)).body.items[0].id as string;
    const stream = await open(app, id, token);
    await hire(app, id, "CTO");
    await readUntil(stream, hired("CTO"));

    expect((await app.request("DELETE", `/api/agents/${ceoAgentId}/keys/${keyId}`)).status).toBe(200);
    const revokedAt = await lastFeedId(app, id);
    await hire(app, id, "CFO");
    expect(await lastFeedId(app, id)).toBeGreaterThan(revokedAt);
    const after = await rest(stream);
    expect(laterThan(after, revokedAt)).toEqual([]);
    expect(after.at(-1)?.event).toBe("stream_error");
    expect(JSON.parse(after.at(-1)!.data).message).toMatch(/revoked/);
    // And the key opens no new one.
    const again = await app.cadre.app.request(`/api/companies/${id}/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.status).toBe(401);
  });

  it("ends when its agent is removed", async () => {
    app = await testApp();
    const { id } = await apiCompany(app);
    const cto = (await app.request("POST", `/api/companies/${id}/agents`, { json: HIRE })).body.id as string;
    const stream = await open(app, id, await apiKey(app, cto));
    await hire(app, id, "CFO");
    await readUntil(stream, hired("CFO"));
    expect((await app.request("DELETE", `/api/agents/${cto}`)).status).toBe(200);
    await hire(app, id, "COO");
    const after = await rest(stream);
    expect(after.some(hired("COO"))).toBe(false);
    expect(
      after.filter((e) => e.event === "domain_event" && JSON.parse(e.data).type === "agent.hired"),
    ).toEqual([]);
  });

  it("stops delivering when the key is revoked by another process, before the next page", async () => {
    app = await testApp();
    const { id, ceoAgentId } = await apiCompany(app);
    const token = await apiKey(app, ceoAgentId);
    const stream = await open(app, id, token);
    await hire(app, id, "CTO");
    await readUntil(stream, hired("CTO"));
    // Straight in the store, as another process (a second API instance, a recovery) would: this
    // server's own routes are not told.
    await app.store.revokeApiTokens({ agentId: ceoAgentId });
    const revokedAt = await lastFeedId(app, id);
    await hire(app, id, "CFO");
    const after = await rest(stream);
    expect(after.some(hired("CFO"))).toBe(false);
    expect(laterThan(after, revokedAt)).toEqual([]);
    expect(after.at(-1)?.event).toBe("stream_error");
  });

  it("an idle stream whose key another process revoked ends at the next heartbeat, with no event to wait for", async () => {
    app = await testApp({ limits: { ssePollMs: 50, sseHeartbeatMs: 50 } });
    const { id, ceoAgentId } = await apiCompany(app);
    const stream = await open(app, id, await apiKey(app, ceoAgentId));
    await hire(app, id, "CTO");
    await readUntil(stream, hired("CTO"));
    await app.store.revokeApiTokens({ agentId: ceoAgentId });
    // Nothing else is committed: the stream ends by itself, saying why.
    const after = await rest(stream);
    expect(after.at(-1)?.event).toBe("stream_error");
    expect(JSON.parse(after.at(-1)!.data).message).toMatch(/no longer valid \(key revoked/);
  });

  it("leaves the operator's streams and other keys' streams open", async () => {
    app = await testApp();
    const { id, ceoAgentId } = await apiCompany(app);
    const kept = await open(app, id, await apiKey(app, ceoAgentId));
    const doomed = await apiKey(app, ceoAgentId);
    const keys = (await app.request("GET", `/api/agents/${ceoAgentId}/keys`)).body.items as Array<{
      id: string;
    }>;
    const doomedStream = await open(app, id, doomed);
    await app.request("DELETE", `/api/agents/${ceoAgentId}/keys/${keys[1]!.id}`);
    await rest(doomedStream);
    await hire(app, id, "CTO");
    expect((await readUntil(kept, hired("CTO"))).some(hired("CTO"))).toBe(true);
  });
});
