// The feed plumbing without HTTP: followFeed over the store's own feed signal delivers every row
// exactly once across any pattern of writes and reconnects (the signal itself: the store's feed contract).
import { sampleDomainEvent } from "@cadre/model/testing";
import { openStore, type Store } from "@cadre/store";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InProcessFeedBus } from "./bus.js";
import { FeedReader, followFeed } from "./follow.js";

let bus: InProcessFeedBus;
let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
  bus = new InProcessFeedBus();
  store.onFeedWrite((ids) => {
    for (const id of ids) bus.publish(id);
  });
  await store.insertCompany({
    id: "co1",
    name: "Co",
    goal: "",
    settings: { maxTeamSize: 5, requireHireApproval: false, profile: "semantic" },
  });
  await store.insertConnector({
    companyId: "co1",
    id: "offline",
    kind: "offline",
    label: "Offline",
    enabledModels: ["offline-scripted-1"],
    config: {},
  });
  await store.insertAgent({
    id: "ceo",
    companyId: "co1",
    name: "CEO",
    role: "CEO",
    description: "",
    department: null,
    connectorId: "offline",
    model: "offline-scripted-1",
    reportsTo: null,
    isCeo: true,
    status: "active",
    via: "system",
  });
  await store.insertRun({
    id: "r1",
    companyId: "co1",
    agentId: "ceo",
    trigger: "routine",
    mode: "team-building",
    profile: "semantic",
    cue: "go",
  });
});
afterEach(async () => store.close());

const activity = () => ({
  companyId: "co1",
  agentId: null,
  runId: null,
  ...sampleDomainEvent("run.stopped"),
});

describe("followFeed", () => {
  it("delivers every row exactly once, in order, across any interleaving of writes and reconnects", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.integer({ min: 1, max: 5 }), fc.constant("reconnect" as const)), {
          minLength: 1,
          maxLength: 12,
        }),
        async (plan) => {
          const reader = new FeedReader(store);
          const start = (await store.listFeed("co1")).at(-1)?.id ?? 0;
          const seen: number[] = [];
          let written = 0;
          let seq = (await store.listRunEvents("r1")).length;
          let stop = new AbortController();
          let cursor = start;
          const consume = (after: number, signal: AbortSignal) =>
            (async () => {
              for await (const item of followFeed({
                reader,
                bus,
                companyId: "co1",
                afterId: after,
                signal,
                pollMs: 60_000,
              })) {
                if (item.kind === "failure") throw new Error(item.message);
                seen.push(item.id);
                cursor = item.id;
              }
            })();
          let consuming = consume(cursor, stop.signal);
          for (const step of plan) {
            if (step === "reconnect") {
              stop.abort();
              await consuming;
              stop = new AbortController();
              consuming = consume(cursor, stop.signal);
            } else {
              await store.appendRunEvents(
                Array.from({ length: step }, () => ({
                  runId: "r1",
                  companyId: "co1",
                  seq: seq++,
                  type: "x",
                  data: {},
                })),
              );
              if (step % 2 === 0) await store.insertActivity(activity());
              written += step + (step % 2 === 0 ? 1 : 0);
            }
          }
          // Bounded: a lost row must fail the assertion below, not hang the test.
          for (let i = 0; i < 500 && seen.length < written; i++)
            await new Promise((resolve) => setTimeout(resolve, 2));
          stop.abort();
          await consuming;
          const all = (await store.listFeed("co1", start)).map((f) => f.id);
          expect(seen).toEqual(all);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("shares one store read among subscribers asking for the same page", async () => {
    let reads = 0;
    const reader = new FeedReader({ listFeed: (...args) => (reads++, store.listFeed(...args)) });
    const pages = await Promise.all(Array.from({ length: 10 }, () => reader.read("co1", undefined, 100)));
    expect(reads).toBe(1);
    expect(new Set(pages).size).toBe(1);
    await reader.read("co1", undefined, 100);
    expect(reads).toBe(2);
  });

  it("ends with one failure item, never a throw, when the store fails", async () => {
    const reader = new FeedReader({ listFeed: () => Promise.reject(new Error("disk gone")) });
    const items = [];
    for await (const item of followFeed({
      reader,
      bus,
      companyId: "co1",
      afterId: undefined,
      signal: new AbortController().signal,
    }))
      items.push(item);
    expect(items).toEqual([{ kind: "failure", message: "disk gone" }]);
    expect(bus.size("co1")).toBe(0);
  });
});
