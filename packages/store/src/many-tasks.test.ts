// A company with more tasks than SQLite will bind parameters in one statement (32,766): listing them,
// all at once or page by page, must not bind one parameter per task.
import { describe, expect, it } from "vitest";
import { openStore } from "./index.js";
import { seed } from "./testing/fixtures.js";

const COUNT = 32_800;
const id = (i: number) => `t${String(i).padStart(6, "0")}`;

describe("a company with more than 32,767 tasks", () => {
  it("lists every task with its blockers, whole and in pages", async () => {
    const store = await openStore({ memory: true });
    try {
      await seed(store);
      await store.transaction(async (tx) => {
        for (let i = 0; i < COUNT; i++)
          await tx.insertTask({
            id: id(i),
            companyId: "co1",
            title: `Task ${i}`,
            description: "",
            status: "todo",
            assigneeAgentId: "ceo",
            creatorAgentId: "ceo",
            parentTaskId: null,
            strategyId: null,
            deliverable: null,
            blockers: i === COUNT - 1 ? [id(0), id(1)] : [],
            via: "tool",
          });
      });
      const all = await store.listTasks("co1");
      expect(all).toHaveLength(COUNT);
      expect(all[COUNT - 1]?.blockers).toEqual([id(0), id(1)]);
      expect((await store.listTasks("co1", { statuses: ["todo", "in_progress"] })).length).toBe(COUNT);

      let seen = 0;
      let after: { at: string; id: string } | undefined;
      let last: string[] = [];
      for (;;) {
        const page = await store.listTasks("co1", { page: after ? { after, limit: 5000 } : { limit: 5000 } });
        if (page.length === 0) break;
        seen += page.length;
        last = page[page.length - 1]!.blockers;
        after = { at: page[page.length - 1]!.createdAt, id: page[page.length - 1]!.id };
      }
      expect(seen).toBe(COUNT);
      expect(last).toEqual([id(0), id(1)]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
