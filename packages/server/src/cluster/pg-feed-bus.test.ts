// The PostgreSQL feed bus: a commit by one process (here: another pool and connection) reaches the
// subscribers of another, only on commit, only for its company; followFeed over it delivers every
// row once, in order, with polling switched off; a dropped LISTEN connection comes back.
import { openStore, PgNotifications } from "@cadre/store";
import pg from "pg";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { activity, run, runEvent, seed } from "../../../store/src/testing/fixtures.js";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { FeedReader, followFeed } from "../feed/follow.js";
import { PostgresFeedBus } from "./pg-feed-bus.js";

afterAll(dropTestSchemas);
const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

/** Two processes' worth of parts on one schema: a writer's store, a listener's store and bus. */
async function twoProcesses() {
  const schema = freshSchema();
  const writer = await openStore({ url: testDatabaseUrl(), schema });
  const reader = await openStore({ url: testDatabaseUrl(), schema });
  const notifications = new PgNotifications(testDatabaseUrl());
  cleanup.push(
    () => writer.close(),
    () => reader.close(),
    () => notifications.close(),
  );
  const bus = await PostgresFeedBus.open(notifications, schema);
  await seed(writer);
  await seed(writer, "co2");
  await writer.insertRun(run("r1"));
  return { writer, reader, bus, notifications };
}

function counter() {
  let n = 0;
  const waiters: Array<() => void> = [];
  return {
    hit: () => {
      n++;
      for (const w of waiters.splice(0)) w();
    },
    get count() {
      return n;
    },
    next: () => new Promise<void>((resolve) => waiters.push(resolve)),
  };
}

describe("PostgresFeedBus", () => {
  it("signals another process's subscribers on commit, once per transaction, only for the company written", async () => {
    const { writer, bus } = await twoProcesses();
    const co1 = counter();
    const co2 = counter();
    bus.subscribe("co1", co1.hit);
    bus.subscribe("co2", co2.hit);

    await writer
      .transaction(async (tx) => {
        await tx.appendRunEvents([runEvent("r1", 0)]);
        throw new Error("rolled back");
      })
      .catch(() => {});
    const committed = co1.next();
    await writer.transaction(async (tx) => {
      await tx.appendRunEvents([runEvent("r1", 0), runEvent("r1", 1)]);
      await tx.insertActivity(activity("agent.hired"));
    });
    await committed;
    // Notifications arrive in commit order: had the rollback sent one, it would have come first.
    expect(co1.count).toBe(1);
    expect(co2.count).toBe(0);
  });

  it("lets followFeed deliver another process's rows exactly once, in order, with polling off", async () => {
    const { writer, reader, bus } = await twoProcesses();
    const stop = new AbortController();
    const seen: number[] = [];
    const follower = (async () => {
      for await (const item of followFeed({
        reader: new FeedReader(reader),
        bus,
        companyId: "co1",
        afterId: undefined,
        signal: stop.signal,
        pollMs: 600_000,
      })) {
        if (item.kind === "failure") throw new Error(item.message);
        seen.push(item.id);
      }
    })();
    for (let seq = 0; seq < 20; seq++) {
      await writer.appendRunEvents([runEvent("r1", seq)]);
      if (seq % 5 === 0) await writer.insertActivity(activity("agent.hired"));
    }
    const all = (await writer.listFeed("co1")).map((f) => f.id);
    const deadline = Date.now() + 10_000;
    while (seen.length < all.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    bus.publish("co1"); // wakes the follower so that it sees the abort
    await follower;
    expect(seen).toEqual(all);
  });

  it("comes back after losing its LISTEN connection, and has every subscriber re-read once", async () => {
    const { writer, bus, notifications } = await twoProcesses();
    const co1 = counter();
    bus.subscribe("co1", co1.hit);
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    try {
      const reread = co1.next();
      await admin.query("select pg_terminate_backend($1)", [notifications.backendPid]);
      await reread;
      const heard = co1.next();
      await writer.appendRunEvents([runEvent("r1", 0)]);
      await heard;
      expect(co1.count).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
  });
});
