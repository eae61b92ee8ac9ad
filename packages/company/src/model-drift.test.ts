// MC-6 drift on the REAL Claude Code binary, in a wake, against a loopback stand-in whose answer
// names another model than the one the CEO is declared on (an endpoint that re-pointed the id):
// under the default `warn` the run goes on, the drift is a run event and an activity row; under
// `settings.onModelDrift: "refuse"` the run stops at that call, its stop reason naming the drift.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "@cadre/core";
import { claudeCodeTestEnv, REAL_CLAUDE_CODE } from "@cadre/core/testing";
import { type Answer, reply, scripted, startStandin, type StandinServer, type Step } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createCompany } from "./companies.js";
import { loadCompanyState } from "./state.js";
import { wakeAgent } from "./wake.js";

const DECLARED = "claude-sonnet-4-5-20250929";
const SERVED = "claude-haiku-4-5-20251001";
const CTO = {
  name: "CTO",
  role: "Chief Technology Officer",
  description: "Owns the technical strategy and leads engineering.",
  connectorId: "offline",
  model: "offline-scripted-1",
  department: "engineering",
};
const servedBy = (answer: Answer, model: string): Answer => ({ ...answer, model });

let dir: string;
let store: Store;
let server: StandinServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-drift-"));
  store = await openStore({ memory: true });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  server = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const LOCAL = "llama-3.1-8b-instruct";

async function wakeOn(
  steps: Step[],
  onModelDrift?: "warn" | "refuse",
  on: "claude-code" | "pi" = "claude-code",
) {
  server = await startStandin({ policy: scripted(steps) });
  vi.stubEnv("TMPDIR", dir);
  vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-offline-never-sent");
  const company = await createCompany(store, {
    name: "Acme Robotics",
    goal: "Build warehouse robots.",
    connectors:
      on === "claude-code"
        ? [{ kind: "claude-code", enabledModels: [DECLARED], config: { executablePath: REAL_CLAUDE_CODE } }]
        : [
            {
              id: "local",
              kind: "openai-compatible",
              enabledModels: [LOCAL],
              config: { baseUrl: server.openaiBaseUrl, models: [{ id: LOCAL, contextWindow: 32768 }] },
            },
          ],
    ceoConnectorId: on === "claude-code" ? "claude-code" : "local",
  });
  if (onModelDrift) {
    const { settings } = (await store.getCompany(company.id))!;
    await store.updateCompanySettings(company.id, { ...settings, onModelDrift });
  }
  const { ceo } = await loadCompanyState(store, company.id);
  const result = await wakeAgent({
    store,
    agentId: ceo.id,
    trigger: "start_team_building",
    env: claudeCodeTestEnv(join(dir, "home"), server.anthropicBaseUrl),
  });
  const stored = (await store.listRunEvents(result.run.id)).map((e) => e.data as AgentEvent);
  const activity = await store.listActivity(company.id, { type: "model.drifted" });
  return { result, stored, activity };
}

describe.skipIf(!REAL_CLAUDE_CODE)(
  "a served model other than the declared one (a drift), on real Claude Code",
  () => {
    it("a call served by the declared model is no drift", async () => {
      const { result, stored, activity } = await wakeOn([reply.text("Looking at the company first.")]);
      // Served by the declared model: nothing to say, and the call is priced at its price.
      expect(result.terminal).toBe("done");
      expect(
        (await store.listModelCalls(result.run.id)).map((c) => [c.servedModel, typeof c.costUsd]),
      ).toEqual([[DECLARED, "number"]]);
      expect(stored.filter((e) => e.type === "model_drift")).toEqual([]);
      expect(activity).toEqual([]);
      expect(result.stopReason).toBeNull();
    });

    it("warn: a call served by another model is a drift event and an activity row; the run completes", async () => {
      const { result, stored, activity } = await wakeOn([servedBy(reply.text("Done for now."), SERVED)]);
      expect(result.terminal).toBe("done");
      // The call records the model that served it, priced unknown (never the declared model's price).
      expect((await store.listModelCalls(result.run.id)).map((c) => [c.servedModel, c.costUsd])).toEqual([
        [SERVED, null],
      ]);
      expect(stored.filter((e) => e.type === "model_drift")).toEqual([
        { type: "model_drift", declared: DECLARED, served: SERVED, policy: "warn" },
      ]);
      expect(activity.map((a) => [a.runId, a.data])).toEqual([
        [result.run.id, { connectorId: "claude-code", declared: DECLARED, served: SERVED, policy: "warn" }],
      ]);
      expect(result.stopReason).toBeNull();
    });

    it("refuse: the run stops at the drifted call, failed, its stop reason and error naming the drift", async () => {
      const { result, stored, activity } = await wakeOn(
        [
          servedBy(reply.toolCall("mcp__cadre__hire_agent", CTO, "Hiring a CTO first."), SERVED),
          "never reached",
        ],
        "refuse",
      );
      expect(result.terminal).toBe("failed");
      expect(result.stopReason).toBe("model_drift");
      expect(result.run.stopReason).toBe("model_drift");
      expect(result.run.error).toMatch(
        new RegExp(`model_drift: the endpoint served "${SERVED}" for the declared model "${DECLARED}"`),
      );
      expect(stored.filter((e) => e.type === "model_drift")).toEqual([
        { type: "model_drift", declared: DECLARED, served: SERVED, policy: "refuse" },
      ]);
      expect(stored.filter((e) => e.type === "terminal")).toHaveLength(1);
      expect(activity).toHaveLength(1);
      expect(server!.modelCalls()).toHaveLength(1);
    });
  },
);

describe("a drift on Pi (an OpenAI-compatible endpoint whose answer names another model)", () => {
  it("refuse: the run stops at the drifted call; the drift names the declared and the served id", async () => {
    const { result, stored, activity } = await wakeOn(
      [
        servedBy(reply.toolCall("hire_agent", CTO, "Hiring a CTO first."), "llama-3.1-70b-instruct"),
        "never reached",
      ],
      "refuse",
      "pi",
    );
    expect(result.terminal).toBe("failed");
    expect(result.stopReason).toBe("model_drift");
    expect(stored.filter((e) => e.type === "model_drift")).toEqual([
      { type: "model_drift", declared: LOCAL, served: "llama-3.1-70b-instruct", policy: "refuse" },
    ]);
    expect(activity.map((a) => a.data)).toEqual([
      { connectorId: "local", declared: LOCAL, served: "llama-3.1-70b-instruct", policy: "refuse" },
    ]);
    expect(server!.modelCalls()).toHaveLength(1);
  });
});
