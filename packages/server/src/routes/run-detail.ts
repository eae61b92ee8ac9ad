// A run as the run view's header reads it (GET /api/runs/{id}): the run as the API has always sent
// it, with who ran it (name, role), the company it ran in and what it cost — so an operator is told
// which agent ran and what it spent without the page stitching four reads together.
import { runUsageTotal } from "@cadre/company";
import { Nullable, type Static } from "@cadre/model";
import type { RunRow, Store } from "@cadre/store";
import { Type } from "typebox";
import { runView, RunViewSchema } from "./views.js";

export const RunDetailSchema = Type.Object(
  {
    ...RunViewSchema.properties,
    agent: Nullable(
      Type.Object(
        { id: Type.String(), name: Type.String(), role: Type.String(), isCeo: Type.Boolean() },
        { additionalProperties: false, description: "Who ran it; null when the agent is gone." },
      ),
    ),
    company: Type.Object(
      { id: Type.String(), name: Type.String() },
      { additionalProperties: false, description: "The company it ran in." },
    ),
    costUsd: Nullable(
      Type.Number({
        minimum: 0,
        description:
          "USD of its model calls at their prices so far; null when a call's price is unknown (never counted as 0).",
      }),
    ),
  },
  { additionalProperties: false },
);
export type RunDetailView = Static<typeof RunDetailSchema>;

export async function runDetailView(store: Store, run: RunRow): Promise<RunDetailView> {
  const [agent, company, usage] = await Promise.all([
    store.getAgent(run.agentId),
    store.getCompany(run.companyId),
    runUsageTotal(store, run),
  ]);
  return {
    ...runView(run),
    agent: agent ? { id: agent.id, name: agent.name, role: agent.role, isCeo: agent.isCeo } : null,
    company: { id: run.companyId, name: company?.name ?? run.companyId },
    costUsd: usage.cost,
  };
}
