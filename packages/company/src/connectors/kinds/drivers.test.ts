// One driver per connector kind: every kind of the vocabulary has one, in its own file, and what a
// driver says about its budget holds — a Pi-routed kind's every model call goes through the run's
// budget guard (reserved before it is sent); a harness that calls the model itself is never said
// to be guarded before each call, so its run is stopped after the call instead.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type StreamFn, UserInputError } from "@cadre/core";
import { CONNECTOR_KINDS, type ConnectorKind } from "@cadre/model";
import type { AgentRow, ConnectorRow } from "@cadre/store";
import { afterAll, describe, expect, it } from "vitest";
import { createSession } from "../../session.js";
import { defaultEnabledModels, readiness } from "../readiness.js";
import { ASSUMED_PROBES } from "../probe-cache.js";
import { CONNECTOR_DRIVERS, driverOf, piRoutedKinds } from "./index.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** A connector of each kind with what its settings need to be ready (probes assumed answered). */
const READY: Record<ConnectorKind, { config: Record<string, unknown>; models?: string[] }> = {
  offline: { config: {} },
  anthropic: { config: {} },
  openai: { config: {} },
  "openai-compatible": {
    config: { baseUrl: "http://127.0.0.1:9/v1", models: [{ id: "local-model-8b", contextWindow: 8192 }] },
    models: ["local-model-8b"],
  },
  "claude-code": { config: {} },
  codex: { config: {} },
};
const ENV = { ANTHROPIC_API_KEY: "sk-test", OPENAI_API_KEY: "sk-test" };
const DATA = mkdtempSync(join(tmpdir(), "cadre-drivers-"));
afterAll(() => rmSync(DATA, { recursive: true, force: true }));

function connector(kind: ConnectorKind): ConnectorRow {
  return {
    id: `c-${kind}`,
    companyId: "cmp_1",
    kind,
    label: driverOf(kind).label,
    enabledModels: READY[kind].models ?? defaultEnabledModels(kind),
    config: READY[kind].config,
    createdAt: "",
  } as ConnectorRow;
}

describe("connector drivers", () => {
  it("has a driver for every kind of the vocabulary, in its own file, and none for another", () => {
    expect(Object.keys(CONNECTOR_DRIVERS).sort()).toEqual([...CONNECTOR_KINDS].sort());
    for (const kind of CONNECTOR_KINDS) {
      expect(CONNECTOR_DRIVERS[kind].kind).toBe(kind);
      const file = `${HERE}${kind}.ts`;
      expect(existsSync(file), `connectors/kinds/${kind}.ts`).toBe(true);
      expect(readFileSync(file, "utf8")).toContain(`kind: "${kind}"`);
    }
    expect(() => driverOf("mistral")).toThrow(UserInputError);
    expect(() => driverOf("mistral")).toThrow(/"mistral" is not supported here; allowed: offline, anthropic/);
  });

  it("says how each budget is enforced, consistently with the harness it runs in", () => {
    for (const kind of CONNECTOR_KINDS) {
      const d = CONNECTOR_DRIVERS[kind];
      // Cadre calls the model of a Pi-routed kind, so it can refuse a call before it is sent; a
      // harness calls the model itself, so code can only act after a reported call.
      expect({ kind, guarded: d.budget === "before-each-call" }).toEqual({
        kind,
        guarded: d.harness === "pi",
      });
      // A harness's executable and credentials are a probe of its own.
      expect({ kind, probed: d.harnessCheck !== undefined }).toEqual({ kind, probed: d.harness !== "pi" });
    }
    expect(piRoutedKinds()[0]).toBe("offline");
  });

  it.each(CONNECTOR_KINDS)(
    "%s: a session's model calls go through the budget guard exactly when it says so",
    async (kind) => {
      const row = connector(kind);
      expect(readiness(row, ENV, ASSUMED_PROBES)).toMatchObject({ ready: true });
      const guarded: StreamFn[] = [];
      const agent = { id: "agt_1", name: "CEO", isCeo: true, model: row.enabledModels[0] } as AgentRow;
      await createSession({
        sessionId: "run_1",
        agent,
        connector: row,
        systemPrompt: "You are the CEO.",
        tools: [],
        seed: 1,
        env: ENV,
        probes: ASSUMED_PROBES,
        runId: "run_1",
        // Harnesses work in the agent's folder under the data directory.
        ...(driverOf(kind).harness === "pi" ? {} : { dataDir: DATA }),
        cadreCommand: ["cadre"],
        guardStreamFn: (inner) => (guarded.push(inner), inner),
      });
      expect(guarded.length).toBe(driverOf(kind).budget === "before-each-call" ? 1 : 0);
    },
  );
});
