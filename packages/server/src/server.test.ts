// startServer's lifecycle over a real port: loopback only, and a graceful shutdown that ends open
// event streams and cancels a running wake, whose run is then recorded as cancelled.
import { openStore, type Store, type StoreQueries } from "@cadre/store";
import { describe, expect, it } from "vitest";
import { startServer } from "./server.js";

/** Holds the n-th call of `method` made inside a transaction of the store, until released. */
function holdCall(store: Store, method: "insertAgent", n: number) {
  let calls = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const holding = (tx: StoreQueries): StoreQueries =>
    new Proxy(tx, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop !== method)
          return typeof value === "function" ? (value as () => unknown).bind(target) : value;
        return async (...args: Parameters<StoreQueries[typeof method]>) => {
          if (++calls === n) {
            reached();
            await released;
          }
          return target[method](...args);
        };
      },
    });
  const heldStore = new Proxy(store, {
    get(target, prop) {
      if (prop === "transaction")
        return ((fn, options) =>
          target.transaction((tx) => fn(holding(tx)), options)) as Store["transaction"];
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: heldStore, held, release };
}

describe("startServer", () => {
  it("refuses to listen anywhere but loopback", async () => {
    const store = await openStore({ memory: true });
    await expect(startServer({ store, host: "0.0.0.0", port: 0 })).rejects.toThrow(/loopback only/);
    await store.close();
  });

  it("sends nosniff and no-store on every kind of answer over the port (JSON, error, 404, event stream)", async () => {
    const store = await openStore({ memory: true });
    const server = await startServer({ store, port: 0, env: {}, log: () => {} });
    try {
      const auth = { authorization: `Bearer ${server.operatorToken}` };
      const created = await fetch(`${server.url}/api/companies`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "Headers Co" }),
      });
      const { id } = (await created.json()) as { id: string };
      const answers = [
        created,
        await fetch(`${server.url}/healthz`),
        await fetch(`${server.url}/api/companies/${id}/agents`, { headers: auth }),
        await fetch(`${server.url}/api/companies/${id}/agents`), // 401
        await fetch(`${server.url}/api/nothing-here`, { headers: auth }), // 404
      ];
      expect(answers.map((r) => r.status)).toEqual([201, 200, 200, 401, 404]);
      const stream = new AbortController();
      const events = await fetch(`${server.url}/api/companies/${id}/events`, {
        headers: auth,
        signal: stream.signal,
      });
      expect(events.headers.get("content-type")).toMatch(/text\/event-stream/);
      for (const r of [...answers, events]) {
        expect(r.headers.get("x-content-type-options")).toBe("nosniff");
        expect(r.headers.get("cache-control")).toMatch(/no-store|no-cache/);
      }
      stream.abort();
    } finally {
      await server.close();
      await store.close();
    }
  });

  it("shuts down gracefully: open event streams end, a running wake ends cancelled and recorded", async () => {
    const raw = await openStore({ memory: true });
    // The 1st agent is the CEO, written with the company; the 2nd is the CEO's first hire, inside a
    // tool call: held there, the session is running when the server is asked to stop.
    const hold = holdCall(raw, "insertAgent", 2);
    const server = await startServer({ store: hold.store, port: 0, env: {}, log: () => {} });
    const auth = { authorization: `Bearer ${server.operatorToken}` };
    const company = (await (
      await fetch(`${server.url}/api/companies`, {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({ name: "Acme", goal: "Robots." }),
      })
    ).json()) as { id: string; ceoAgentId: string };
    const events = await fetch(`${server.url}/api/companies/${company.id}/events`, { headers: auth });
    const reader = events.body!.getReader();
    const woken = (await (
      await fetch(`${server.url}/api/agents/${company.ceoAgentId}/wake`, { method: "POST", headers: auth })
    ).json()) as { runId: string };
    await hold.held;

    const closing = server.close();
    hold.release();
    await closing;
    // The stream ended (the reader reaches its end instead of waiting for ever).
    for (;;) if ((await reader.read()).done) break;
    const run = await raw.getRun(woken.runId);
    expect(run?.status).toBe("cancelled");
    const stored = await raw.listRunEvents(woken.runId);
    expect(stored.at(-1)?.data).toMatchObject({ type: "terminal", status: "cancelled" });
    expect(stored.filter((e) => e.type === "terminal")).toHaveLength(1);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    await raw.close();
  });
});
