// One running wake per agent over HTTP too: a second wake of an agent whose run
// is still going answers 409 naming that run, and writes nothing; once the run ends, the agent
// can be woken again.
import { openStore, type Store, type StoreQueries } from "@cadre/store";
import { afterEach, expect, it } from "vitest";
import { apiCompany, type TestApp, testAppOver } from "./testing/harness.js";

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/**
 * Holds the CEO's first hire_agent call once its transaction has committed (holding it inside would
 * hold the store's one connection), until released: the run is going, the store free.
 */
function holdFirstHire(store: Store) {
  let agents = 0;
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const counting = (tx: StoreQueries, hired: () => void): StoreQueries =>
    new Proxy(tx, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop !== "insertAgent")
          return typeof value === "function" ? (value as () => unknown).bind(target) : value;
        return (...args: Parameters<StoreQueries["insertAgent"]>) => {
          // The company's CEO is the first agent written; the CEO's first hire is the second.
          if (++agents === 2) hired();
          return target.insertAgent(...args);
        };
      },
    });
  const wrapped = new Proxy(store, {
    get(target, prop) {
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
  return { store: wrapped, held, release };
}

it("answers 409 to a second wake of an agent whose run is going, writing nothing", async () => {
  const raw = await openStore({ memory: true });
  const hold = holdFirstHire(raw);
  app = testAppOver(raw, { store: hold.store });
  const { ceoAgentId } = await apiCompany(app);
  const first = await app.request("POST", `/api/agents/${ceoAgentId}/wake`, {
    json: { trigger: "start_team_building" },
  });
  expect(first.status).toBe(202);
  await hold.held;
  const before = await raw.counts();
  const second = await app.request("POST", `/api/agents/${ceoAgentId}/wake`);
  expect(second.status).toBe(409);
  expect(second.body.error.message).toContain(`is already running run ${first.body.runId}`);
  expect(await raw.counts()).toEqual(before);
  hold.release();
  await app.cadre.wakes.idle();
  expect((await raw.getRun(first.body.runId))?.status).toBe("done");
  expect((await app.request("POST", `/api/agents/${ceoAgentId}/wake`)).status).toBe(202);
  await app.cadre.wakes.idle();
});
