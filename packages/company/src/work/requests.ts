// Writing the wakes that work decided (wake-rules.ts) as wake requests, inside the transaction of
// the change that caused them: the change and who it wakes commit together or not at all.
import type { StoreQueries, WakeRequestRow } from "@cadre/store";
import { newId } from "../ids.js";
import type { ChangeActor, WakeIntent } from "./wake-rules.js";

export async function requestWakes(
  tx: StoreQueries,
  companyId: string,
  wakes: readonly WakeIntent[],
  causedBy: ChangeActor,
  runId: string | null,
): Promise<WakeRequestRow[]> {
  const written: WakeRequestRow[] = [];
  for (const wake of wakes) {
    const pending = await tx.listWakeRequests({ agentId: wake.agentId, status: "pending" });
    // The same reason already waits: the wake that takes it will see this change too.
    if (pending.some((p) => p.trigger === wake.trigger && p.taskId === wake.taskId)) continue;
    const row = await tx.insertWakeRequest({
      id: newId("wrq"),
      companyId,
      agentId: wake.agentId,
      trigger: wake.trigger,
      taskId: wake.taskId,
      causedBy,
      cause: wake.cause,
    });
    await tx.insertActivity({
      companyId,
      agentId: wake.agentId,
      runId,
      type: "wake.requested",
      data: {
        requestId: row.id,
        agentId: wake.agentId,
        trigger: wake.trigger,
        taskId: wake.taskId,
        causedBy,
        cause: wake.cause,
        ...(wake.approvalId !== undefined ? { approvalId: wake.approvalId } : {}),
      },
    });
    written.push(row);
  }
  return written;
}
