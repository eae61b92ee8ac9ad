// Files attached to tasks: the bytes read back are exactly those attached, whatever is
// attached later; one content is kept once; an attachment inside a transaction that fails leaves
// nothing behind.
import { describe, expect, it } from "vitest";
import type { NewTask, NewTaskFile } from "../types.js";
import { agent, seed, type GetStore } from "./fixtures.js";

const task: NewTask = {
  id: "t1",
  companyId: "co1",
  title: "Write the plan",
  description: "",
  status: "in_progress",
  assigneeAgentId: "a1",
  creatorAgentId: "ceo",
  parentTaskId: null,
  strategyId: null,
  deliverable: null,
  blockers: [],
  via: "tool",
};

const file = (id: string, name: string, content: Uint8Array): NewTaskFile => ({
  id,
  taskId: "t1",
  companyId: "co1",
  name,
  mediaType: "text/markdown",
  addedBy: "a1",
  runId: null,
  content,
});

const bytes = (text: string) => new TextEncoder().encode(text);

export function taskFileContract(store: GetStore): void {
  describe("task files", () => {
    async function seedTask() {
      await seed(store());
      await store().insertAgent(agent("a1", { reportsTo: "ceo" }));
      await store().insertTask(task);
    }

    it("reads back exactly the bytes attached, with their hash and size", async () => {
      await seedTask();
      const every = new Uint8Array(256).map((_, i) => i);
      const row = await store().attachTaskFile({
        ...file("f1", "out/raw.bin", every),
        mediaType: "application/octet-stream",
      });
      expect(row).toMatchObject({ id: "f1", name: "out/raw.bin", size: 256, addedBy: "a1" });
      expect(row.sha256).toMatch(/^[0-9a-f]{64}$/);
      const read = await store().getTaskFile("f1");
      expect(Buffer.from(read!.content).equals(Buffer.from(every))).toBe(true);
      expect(read?.sha256).toBe(row.sha256);
      expect(await store().getTaskFile("nope")).toBeUndefined();
    });

    it("keeps the first hand-in as it was when the same name is attached again with new content", async () => {
      await seedTask();
      const first = await store().attachTaskFile(file("f1", "plan.md", bytes("# Plan v1\n")));
      const second = await store().attachTaskFile(file("f2", "plan.md", bytes("# Plan v2\n")));
      expect(second.sha256).not.toBe(first.sha256);
      expect((await store().listTaskFiles("t1")).map((f) => [f.id, f.name, f.sha256])).toEqual([
        ["f1", "plan.md", first.sha256],
        ["f2", "plan.md", second.sha256],
      ]);
      expect(Buffer.from((await store().getTaskFile("f1"))!.content).toString()).toBe("# Plan v1\n");
      expect(Buffer.from((await store().getTaskFile("f2"))!.content).toString()).toBe("# Plan v2\n");
    });

    it("keeps one content once, however often it is attached", async () => {
      await seedTask();
      await store().attachTaskFile(file("f1", "a.md", bytes("same")));
      await store().attachTaskFile(file("f2", "b.md", bytes("same")));
      const counts = await store().counts();
      expect(counts["file_contents"]).toBe(1);
      expect(counts["task_files"]).toBe(2);
    });

    it("writes nothing when the transaction it is part of fails", async () => {
      await seedTask();
      await expect(
        store().transaction(async (tx) => {
          await tx.attachTaskFile(file("f1", "a.md", bytes("draft")));
          throw new Error("the task update failed");
        }),
      ).rejects.toThrow("the task update failed");
      expect(await store().listTaskFiles("t1")).toEqual([]);
      expect((await store().counts())["file_contents"]).toBe(0);
    });
  });
}
