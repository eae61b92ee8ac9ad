// What several writers at once may rely on, whatever the dialect (one SQLite connection, or many
// PostgreSQL connections from many machines): check-then-write transactions behave as if they ran
// one at a time, and a company's event ids commit in increasing order, so that a reader resuming
// after the last id it saw (SSE Last-Event-ID) never misses an event committed later.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { activity, agent, run, runEvent, seed, type GetStore } from "./fixtures.js";

export function concurrencyContract(store: GetStore): void {
  describe("concurrent writers", () => {
    it("run check-then-write transactions as if one at a time", async () => {
      await seed(store());
      const hired = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store().transaction(async (tx) => {
            const active = await tx.listAgents("co1", { status: "active" });
            if (active.length >= 4) return false;
            await sleep(Math.random() * 5);
            await tx.insertAgent(agent(`a${i}`));
            return true;
          }),
        ),
      );
      expect(hired.filter(Boolean)).toHaveLength(3);
      expect(await store().listAgents("co1")).toHaveLength(4);
    });

    it("commit a company's event and feed ids in increasing order", async () => {
      await seed(store());
      const writers = 6;
      for (let w = 0; w < writers; w++) await store().insertRun(run(`r${w}`));
      let writing = true;
      const write = async (w: number) => {
        for (let batch = 0; batch < 5; batch++) {
          // A pause between drawing ids and committing them is where another writer could commit a
          // later id first.
          await store().transaction(async (tx) => {
            await tx.appendRunEvents([runEvent(`r${w}`, batch)]);
            if (batch === 2) await tx.insertActivity(activity("agent.hired", { runId: `r${w}` }));
            await sleep(Math.random() * 8);
          });
        }
      };
      const seenEvents: number[] = [];
      const seenFeed: number[] = [];
      const read = async () => {
        let lastEvent: number | undefined;
        let lastFeed: number | undefined;
        const poll = async () => {
          const events = await store().listCompanyEvents("co1", lastEvent);
          seenEvents.push(...events.map((e) => e.id));
          lastEvent = events.at(-1)?.id ?? lastEvent;
          const feed = await store().listFeed("co1", lastFeed);
          seenFeed.push(...feed.map((f) => f.id));
          lastFeed = feed.at(-1)?.id ?? lastFeed;
        };
        while (writing) {
          await poll();
          await sleep(1);
        }
        await poll();
      };
      const reader = read();
      await Promise.all(Array.from({ length: writers }, (_, w) => write(w)));
      writing = false;
      await reader;

      const allEvents = (await store().listCompanyEvents("co1")).map((e) => e.id);
      const allFeed = (await store().listFeed("co1")).map((f) => f.id);
      expect(allEvents).toHaveLength(writers * 5);
      expect(allFeed).toHaveLength(writers * 6);
      expect(seenEvents).toEqual(allEvents);
      expect(seenFeed).toEqual(allFeed);
    });
  });
}
