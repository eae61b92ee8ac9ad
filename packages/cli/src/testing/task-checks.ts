// What the task tests check in a data dir's store: no task was ever held by two runs at once.
import { openStore } from "@cadre/store";
import { expect } from "vitest";

/** Checkout/release pairs per task from the activity: no task is ever held by two runs at once. */
export async function checkoutsNeverOverlap(path: string): Promise<{ tasks: number; checkouts: number }> {
  const store = await openStore({ path });
  try {
    const [company] = await store.listCompanies();
    const activity = await store.listActivity(company!.id);
    const holder = new Map<string, string>();
    let checkouts = 0;
    for (const a of activity) {
      const d = a.data as { taskId?: string; runId?: string };
      if (a.type === "task.checked_out") {
        expect(
          holder.get(d.taskId!),
          `task ${d.taskId} checked out by ${d.runId} while ${holder.get(d.taskId!)} held it`,
        ).toBeUndefined();
        holder.set(d.taskId!, d.runId!);
        checkouts++;
      }
      if (a.type === "task.released") {
        expect(holder.get(d.taskId!)).toBe(d.runId);
        holder.delete(d.taskId!);
      }
    }
    expect([...holder.keys()]).toEqual([]);
    return { tasks: (await store.listTasks(company!.id)).length, checkouts };
  } finally {
    await store.close();
  }
}
