// The views of a connector and of its test, as the API answers them (server/routes/views.ts
// re-exports them): readiness with each probe's last outcome (what was checked, when, what failed),
// the enabled models with the window each runs with, and the config with anything that looks like a
// secret redacted. Here rather than in the server so that the CLI renders the same view cheaply.
import { CONNECTOR_KINDS, ConnectorRowSchema, Nullable, OneOf, project, type Static } from "@cadre/model";
import type { ConnectorRow } from "@cadre/store";
import { Type } from "typebox";
import { readiness } from "./readiness.js";
import { redactConfig } from "./connector-config.js";
import { connectorModelInfo, declaredModels } from "./connector-models.js";
import type { ConnectorTestResult } from "./connector-test.js";
import type { ProbeBook } from "./probe-cache.js";

const Id = (description?: string) => Type.String(description ? { description } : {});
const Time = (description = "ISO-8601 time, UTC.") => Type.String({ description });
const strict = { additionalProperties: false } as const;

export const ProbeViewSchema = Type.Object(
  {
    kind: OneOf(["endpoint", "harness"], {
      description:
        "endpoint: the network endpoint answered; harness: its executable and credentials were found.",
    }),
    target: Type.String({
      description: "What was checked: the URL asked, or the harness's executable and credentials.",
    }),
    status: OneOf(["ok", "failed", "unchecked"], {
      description: "The last outcome; unchecked: not checked yet.",
    }),
    checkedAt: Nullable(Time("When it was last checked (ISO-8601, UTC); null when never.")),
    latencyMs: Nullable(Type.Integer({ minimum: 0 })),
    error: Type.Optional(Type.String({ description: "What failed, when it did." })),
    detail: Type.Optional(Type.String()),
  },
  strict,
);

// The record's fields, its fingerprints (shown per model) left out and its config shown redacted.
const {
  modelFingerprints: _fingerprints,
  config: _config,
  createdAt,
  ...identity
} = ConnectorRowSchema.properties;

export const ConnectorViewSchema = Type.Object(
  {
    ...identity,
    models: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          contextWindow: Nullable(
            Type.Integer({ description: "Tokens; null when the connector cannot route it." }),
          ),
          declared: Type.Boolean({
            description: "Declared by the connector (config.models), not from the registry.",
          }),
          fingerprint: Type.Optional(
            Type.String({
              description:
                "What the endpoint offered for it when it was declared (digest:… from Ollama, listing:… from the model list).",
            }),
          ),
          replacedBy: Type.Optional(
            Type.String({
              description:
                "What the endpoint offers now, when it differs: the model under this id was replaced (a drift; settings.onModelDrift decides at each wake).",
            }),
          ),
        },
        strict,
      ),
      { description: "The enabled models with the context window each runs with." },
    ),
    config: Type.Record(Type.String(), Type.Unknown(), {
      description: "Non-secret configuration; anything that looks like a secret reads [redacted].",
    }),
    ready: Type.Boolean({
      description:
        "Credentials present, executable found, endpoint answered — from the probes' last outcome (refreshed in the background).",
    }),
    missing: Type.Optional(Type.String({ description: "What keeps it from being ready." })),
    checkedAt: Nullable(Time("When its probes last ran (the latest); null when never, or when it has none.")),
    probes: Type.Array(ProbeViewSchema, {
      description: "Each probe behind readiness, with its last outcome.",
    }),
    createdAt,
  },
  strict,
);
export type ConnectorView = Static<typeof ConnectorViewSchema>;

export function connectorView(c: ConnectorRow, env: NodeJS.ProcessEnv, probes?: ProbeBook): ConnectorView {
  const r = readiness(c, env, probes);
  const declared = new Set(declaredModels(c).map((m) => m.id));
  const states = r.probes ?? [];
  const latest = states.reduce<string | null>(
    (at, p) => (p.checkedAt !== null && (at === null || p.checkedAt > at) ? p.checkedAt : at),
    null,
  );
  return project(ConnectorViewSchema, c, {
    models: c.enabledModels.map((id) => {
      const fingerprint = c.modelFingerprints?.[id];
      const drift = r.drifts?.find((d) => d.model === id);
      return {
        id,
        contextWindow: connectorModelInfo(c, id)?.contextWindow ?? null,
        declared: declared.has(id),
        ...(fingerprint !== undefined ? { fingerprint } : {}),
        ...(drift ? { replacedBy: drift.served } : {}),
      };
    }),
    config: redactConfig(c.config),
    ready: r.ready,
    missing: r.missing || undefined,
    checkedAt: latest,
    probes: states.map((p) => ({
      kind: p.kind,
      target: p.target,
      status: p.status,
      checkedAt: p.checkedAt,
      latencyMs: p.latencyMs,
      ...(p.error !== undefined ? { error: p.error } : {}),
      ...(p.detail !== undefined ? { detail: p.detail } : {}),
    })),
  });
}

export const ConnectorTestViewSchema = Type.Object(
  {
    ok: Type.Boolean({ description: "The request got a successful answer." }),
    connectorId: Id(),
    kind: OneOf(CONNECTOR_KINDS),
    model: Type.String({ description: "The model the request named." }),
    latencyMs: Type.Integer({
      minimum: 0,
      description: "From sending the request to the end of its answer.",
    }),
    target: Type.String({ description: "What was asked: the URL, or the executable started." }),
    checkedAt: Time(),
    answered: Type.Boolean({ description: "The endpoint answered at all (an error answer is an answer)." }),
    error: Type.Optional(Type.String({ description: "What failed (never a secret)." })),
    answer: Type.Optional(Type.String({ description: "The first words of the answer." })),
  },
  strict,
);
export type ConnectorTestView = Static<typeof ConnectorTestViewSchema>;

export function connectorTestView(t: ConnectorTestResult): ConnectorTestView {
  return {
    ok: t.ok,
    connectorId: t.connectorId,
    kind: t.kind,
    model: t.model,
    latencyMs: t.latencyMs,
    target: t.target,
    checkedAt: t.checkedAt,
    answered: t.answered,
    ...(t.error !== undefined ? { error: t.error } : {}),
    ...(t.answer !== undefined ? { answer: t.answer } : {}),
  };
}
