// The trigger of a wake nobody named and no request explains: approval_decided when the operator
// decided an approval since the agent's last run, else routine.
import type { WakeTrigger } from "@cadre/model";
import type { StoreQueries } from "@cadre/store";

export async function inferTrigger(
  q: StoreQueries,
  companyId: string,
  agentId: string,
): Promise<WakeTrigger> {
  const runs = await q.listRuns({ agentId });
  const lastStart = runs.at(-1)?.startedAt ?? "";
  const decisions = await q.listActivity(companyId, { type: "approval.decided" });
  return decisions.some((d) => d.at > lastStart) ? "approval_decided" : "routine";
}
