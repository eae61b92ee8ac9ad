// Reads trace files back strictly: a baseline is evidence, so a malformed one is refused with the
// file and the field named, never half-read.
import {
  type At,
  array,
  atFile,
  boolean,
  child,
  fail,
  object,
  parseJson,
  requiredArray,
  requiredNumber,
  requiredString,
  schemaVersion,
  string,
  stringList,
} from "../data/fields.js";
import { hashOf } from "../data/hash.js";
import { parseScenario } from "../scenario/parse.js";
import type { Scenario } from "../scenario/types.js";
import {
  TRACE_SCHEMA_VERSION,
  type ScenarioTraces,
  type Trace,
  type TraceAgent,
  type TraceApproval,
  type TraceHire,
  type TraceToolCall,
} from "./types.js";

const TERMINALS = ["done", "failed", "cancelled"] as const;
const SOURCES = ["offline", "live", "replayed"] as const;
const ANY = { nonEmpty: false } as const;

function items<T>(o: Record<string, unknown>, key: string, at: At, read: (raw: unknown, at: At) => T): T[] {
  const here = child(at, key);
  return requiredArray(o, key, at).map((raw, i) => read(raw, child(here, i)));
}

function nullableString(o: Record<string, unknown>, key: string, at: At): string | null {
  if (o[key] === null) return null;
  return requiredString(o, key, at, ANY);
}

function approval(raw: unknown, at: At): TraceApproval {
  const o = object(raw, at, ["type", "title", "status", "via"]);
  return {
    type: requiredString(o, "type", at),
    title: requiredString(o, "title", at, ANY),
    status: requiredString(o, "status", at),
    via: requiredString(o, "via", at),
  };
}

function hire(raw: unknown, at: At): TraceHire {
  const o = object(raw, at, ["name", "role", "description", "department", "connectorId", "model", "via"]);
  return {
    name: requiredString(o, "name", at, ANY),
    role: requiredString(o, "role", at, ANY),
    description: requiredString(o, "description", at, ANY),
    department: nullableString(o, "department", at),
    connectorId: requiredString(o, "connectorId", at),
    model: requiredString(o, "model", at),
    via: requiredString(o, "via", at, { oneOf: ["tool", "http", "system"] }),
  };
}

function agent(raw: unknown, at: At): TraceAgent {
  const o = object(raw, at, ["name", "role", "department", "connectorId", "model", "via", "status", "isCeo"]);
  return {
    name: requiredString(o, "name", at, ANY),
    role: requiredString(o, "role", at, ANY),
    department: nullableString(o, "department", at),
    connectorId: requiredString(o, "connectorId", at),
    model: requiredString(o, "model", at),
    via: requiredString(o, "via", at),
    status: requiredString(o, "status", at),
    isCeo: boolean(o, "isCeo", at) as boolean,
  };
}

function toolCall(raw: unknown, at: At): TraceToolCall {
  const o = object(raw, at, ["name", "args", "ok", "result"]);
  if (!("args" in o)) fail(child(at, "args"), "is required");
  return {
    name: requiredString(o, "name", at),
    args: o["args"],
    ok: boolean(o, "ok", at) as boolean,
    result: requiredString(o, "result", at, ANY),
  };
}

const COUNT = { integer: true, min: 0 } as const;

export function parseTrace(raw: unknown, at: At): Trace {
  const o = object(raw, at, [
    "schemaVersion",
    "scenarioId",
    "sample",
    "seed",
    "profile",
    "ceoRoute",
    "source",
    "break",
    "trigger",
    "modeBefore",
    "modeAfter",
    "cue",
    "systemPrompt",
    "tools",
    "toolCalls",
    "trajectory",
    "hires",
    "approvalsFiled",
    "usage",
    "latencyMs",
    "terminal",
    "errors",
    "finalState",
  ]);
  schemaVersion(o, at, TRACE_SCHEMA_VERSION);
  const cueAt = child(at, "cue");
  const cue = object(o["cue"] ?? fail(cueAt, "is required"), cueAt, ["text", "tokens"]);
  const spAt = child(at, "systemPrompt");
  const sp = object(o["systemPrompt"] ?? fail(spAt, "is required"), spAt, ["tokens", "sha256", "observed"]);
  const usageAt = child(at, "usage");
  const usage = object(o["usage"] ?? fail(usageAt, "is required"), usageAt, [
    "inputTokens",
    "outputTokens",
    "cacheReadTokens",
    "cacheWriteTokens",
    "cacheHitRate",
    "modelCalls",
  ]);
  const finalAt = child(at, "finalState");
  const final = object(o["finalState"] ?? fail(finalAt, "is required"), finalAt, [
    "mode",
    "agents",
    "approvals",
  ]);
  const toolsAt = child(at, "tools");
  return {
    schemaVersion: TRACE_SCHEMA_VERSION,
    scenarioId: requiredString(o, "scenarioId", at),
    sample: requiredNumber(o, "sample", at, COUNT),
    seed: requiredNumber(o, "seed", at, COUNT),
    profile: requiredString(o, "profile", at),
    ceoRoute: requiredString(o, "ceoRoute", at),
    source: requiredString(o, "source", at, { oneOf: SOURCES }) as Trace["source"],
    break: o["break"] === null ? null : (string(o, "break", at) as string),
    trigger: requiredString(o, "trigger", at),
    modeBefore: requiredString(o, "modeBefore", at),
    modeAfter: requiredString(o, "modeAfter", at),
    cue: {
      text: requiredString(cue, "text", cueAt, ANY),
      tokens: requiredNumber(cue, "tokens", cueAt, COUNT),
    },
    systemPrompt: {
      tokens: requiredNumber(sp, "tokens", spAt, COUNT),
      sha256: requiredString(sp, "sha256", spAt, ANY),
      observed: boolean(sp, "observed", spAt) as boolean,
    },
    tools: (array(o, "tools", at) ?? []).map((raw, i) => {
      const t = object(raw, child(toolsAt, i), ["name", "schemaHash"]);
      return {
        name: requiredString(t, "name", child(toolsAt, i)),
        schemaHash: requiredString(t, "schemaHash", child(toolsAt, i)),
      };
    }),
    toolCalls: items(o, "toolCalls", at, toolCall),
    trajectory: stringList(o, "trajectory", at) as string[],
    hires: items(o, "hires", at, hire),
    approvalsFiled: items(o, "approvalsFiled", at, approval),
    usage: {
      inputTokens: requiredNumber(usage, "inputTokens", usageAt, COUNT),
      outputTokens: requiredNumber(usage, "outputTokens", usageAt, COUNT),
      cacheReadTokens: requiredNumber(usage, "cacheReadTokens", usageAt, COUNT),
      cacheWriteTokens: requiredNumber(usage, "cacheWriteTokens", usageAt, COUNT),
      cacheHitRate: requiredNumber(usage, "cacheHitRate", usageAt, { min: 0, max: 1 }),
      modelCalls: requiredNumber(usage, "modelCalls", usageAt, COUNT),
    },
    latencyMs: requiredNumber(o, "latencyMs", at, { min: 0 }),
    terminal: requiredString(o, "terminal", at, { oneOf: TERMINALS }) as Trace["terminal"],
    errors: stringList(o, "errors", at) as string[],
    finalState: {
      mode: requiredString(final, "mode", finalAt),
      agents: items(final, "agents", finalAt, agent),
      approvals: items(final, "approvals", finalAt, approval),
    },
  };
}

/** A traces/<scenario>.json file, with its scenario snapshot parsed. */
export function parseScenarioTraces(
  text: string,
  file: string,
): { traces: ScenarioTraces; scenario: Scenario } {
  const at = atFile(file);
  const o = object(parseJson(text, file), at, ["schemaVersion", "kind", "scenario", "traces"]);
  schemaVersion(o, at, TRACE_SCHEMA_VERSION);
  requiredString(o, "kind", at, { oneOf: ["cadre-eval-traces"] });
  const sAt = child(at, "scenario");
  const s = object(o["scenario"] ?? fail(sAt, "is required"), sAt, ["id", "hash", "snapshot"]);
  const id = requiredString(s, "id", sAt);
  const snapshot = parseScenario(
    s["snapshot"] ?? fail(child(sAt, "snapshot"), "is required"),
    file,
    child(sAt, "snapshot"),
  );
  const hash = requiredString(s, "hash", sAt, { pattern: /^[0-9a-f]{64}$/ });
  if (hashOf(snapshot) !== hash)
    fail(child(sAt, "hash"), "does not match the scenario snapshot (was the file edited by hand?)");
  if (snapshot.id !== id)
    fail(child(child(sAt, "snapshot"), "id"), `is "${snapshot.id}" but scenario.id is "${id}"`);
  const traces = items(o, "traces", at, parseTrace);
  traces.forEach((t, i) => {
    if (t.scenarioId !== id)
      fail(
        child(child(child(at, "traces"), i), "scenarioId"),
        `is "${t.scenarioId}" but the file is for scenario "${id}"`,
      );
  });
  if (traces.length === 0) fail(child(at, "traces"), "holds no trace");
  return {
    traces: {
      schemaVersion: TRACE_SCHEMA_VERSION,
      kind: "cadre-eval-traces",
      scenario: { id, hash, snapshot: s["snapshot"] as Record<string, unknown> },
      traces,
    },
    scenario: snapshot,
  };
}
