// The company's model drifts (MC-6) as the dashboard's notice and the API show them: each
// `model.drifted` activity row — which agent, on which connector, the declared and the served
// model (and, when the model under the id was replaced, what the endpoint offered then and now),
// when, and whether the company refused it — the newest first.
import { NotFoundError } from "@cadre/core";
import { Nullable, OneOf, type Static } from "@cadre/model";
import type { Store } from "@cadre/store";
import { Type } from "typebox";

export const ModelDriftViewSchema = Type.Object(
  {
    at: Type.String({ description: "When it was recorded (ISO-8601): the end of the run that saw it." }),
    runId: Nullable(Type.String()),
    agentId: Nullable(Type.String()),
    agentName: Nullable(Type.String({ description: "The agent's name (null when it is not known)." })),
    connectorId: Type.String(),
    declared: Type.String({ description: "The model id the agent is declared on." }),
    served: Type.String({ description: "The model id the endpoint's answers named." }),
    fingerprint: Type.Optional(
      Type.Object(
        {
          declared: Type.String({
            description: "What the endpoint offered for the model when it was declared.",
          }),
          served: Type.String({ description: "What it offered when the run started." }),
        },
        {
          description:
            "Set when the model under the declared id was replaced (its digest or listing changed).",
        },
      ),
    ),
    policy: OneOf(["warn", "refuse"] as const, {
      description: "warn: the run went on; refuse: the company stopped it (settings.onModelDrift).",
    }),
  },
  { additionalProperties: false },
);
export type ModelDriftView = Static<typeof ModelDriftViewSchema>;

export const ModelDriftReportSchema = Type.Object(
  { items: Type.Array(ModelDriftViewSchema, { description: "Newest first, at most 50." }) },
  { additionalProperties: false },
);
export type ModelDriftReport = Static<typeof ModelDriftReportSchema>;

const MAX = 50;

export async function modelDriftReport(store: Store, companyId: string): Promise<ModelDriftReport> {
  if (!(await store.getCompany(companyId))) throw new NotFoundError(`company ${companyId} not found`);
  const rows = (await store.listActivity(companyId, { type: "model.drifted" })).slice(-MAX).reverse();
  const names = new Map((await store.listAgents(companyId)).map((a) => [a.id, a.name]));
  return {
    items: rows.map((row) => {
      const d = (row.data ?? {}) as Record<string, unknown>;
      const fp = d["fingerprint"] as { declared?: unknown; served?: unknown } | undefined;
      return {
        at: row.at,
        runId: row.runId,
        agentId: row.agentId,
        agentName: row.agentId !== null ? (names.get(row.agentId) ?? null) : null,
        connectorId: String(d["connectorId"] ?? ""),
        declared: String(d["declared"] ?? ""),
        served: String(d["served"] ?? ""),
        ...(typeof fp?.declared === "string" && typeof fp.served === "string"
          ? { fingerprint: { declared: fp.declared, served: fp.served } }
          : {}),
        policy: d["policy"] === "refuse" ? "refuse" : "warn",
      };
    }),
  };
}
