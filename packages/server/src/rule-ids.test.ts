// The spec's rule ids (MC-n, C4-n, OP-n) are for the people who build Cadre: they stay in tests
// and comments, never in text a model or an API user reads. This scans what those read — every
// company tool's definition (name, description, input schema), the tools' refusals, every write
// route's refusal of a bad body, the OpenAPI document, every locked prompt text, the reasons of the
// context decisions a run's events carry and the answer of a model change — for them.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { companyTools, createCompany, loadCompanyState, lockedTexts } from "@cadre/company";
import { COMPANY_TOOL_NAMES } from "@cadre/company";
import {
  assessModelSwitch,
  decideCompression,
  decideRecovery,
  HARNESS_KINDS,
  OFFLINE_MODEL_ID,
  OFFLINE_SMALL_MODEL_ID,
  timeoutPolicy,
  type TimeoutKind,
} from "@cadre/core";
import { openStore } from "@cadre/store";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi.js";
import { ROUTES } from "./routes/index.js";
import { send, testAppOver, testWorld } from "./testing/harness.js";
import { VALID_REQUESTS } from "./testing/write-routes.js";

const RULE_ID = /\b(MC|C4|OP)-\d+/;

/** Every text scanned, so that a test can show it read real refusals (a scan of nothing passes). */
const scanned: string[] = [];

/** The rule ids in a text, with where they were found, for a failure that says what to fix. */
function ruleIds(where: string, text: string): string[] {
  scanned.push(text);
  return [...text.matchAll(new RegExp(RULE_ID.source, "g"))].map(
    (m) => `${where}: ${m[0]} in …${text.slice(Math.max(0, (m.index ?? 0) - 60), (m.index ?? 0) + 10)}…`,
  );
}

describe("no rule ids in model-facing text or the API's descriptions", () => {
  it("the company tools' definitions and their refusals", async () => {
    const w = await testWorld();
    const found: string[] = [];
    const actors = [
      { companyId: w.companyA, agentId: w.ceoA, via: "tool" as const, runId: null },
      { companyId: w.companyA, agentId: w.ctoA, via: "tool" as const, runId: null },
    ];
    let call = 0;
    for (const actor of actors) {
      const tools = companyTools(w.app.store, actor, COMPANY_TOOL_NAMES);
      expect(tools.map((t) => t.name)).toEqual([...COMPANY_TOOL_NAMES]);
      for (const tool of tools) {
        const { name, label, description, parameters } = tool;
        found.push(
          ...ruleIds(`${name} definition`, JSON.stringify({ name, label, description, parameters })),
        );
        // Refused input: no fields, an unknown one, wrong types.
        for (const raw of [{}, { bogus: 1 }, { title: 7, name: 7, type: "nope", taskId: 7 }]) {
          const checked = tool.validate(raw);
          if (!checked.ok) found.push(...ruleIds(`${name} validation`, checked.message));
        }
        // Refused by the company's rules: inputs that pass the schema but not the rules.
        for (const input of [
          { title: "T", assignee: "Nobody", taskId: "task_missing", status: "done" },
          { name: "CEO", role: "r", description: "d", department: "engineering", model: "gpt-5" },
          { type: "approve_ceo_strategy", title: "Plan", payload: "" },
        ]) {
          const valid = tool.validate(input);
          if (!valid.ok) continue;
          const outcome = await tool.execute(valid.value, {
            toolCallId: `call_${++call}`,
            signal: undefined,
          });
          for (const c of outcome.content)
            if (c.type === "text") found.push(...ruleIds(`${name} outcome`, c.text));
        }
      }
    }
    expect(found).toEqual([]);
    expect(scanned.filter((t) => t.includes("was not run, nothing was written")).length).toBeGreaterThan(10);
  });

  it("every write route's refusal of a bad body", { timeout: 120_000 }, async () => {
    const found: string[] = [];
    for (const [key, valid] of Object.entries(VALID_REQUESTS)) {
      // Each route in a world of its own: what one route does (remove a hire) does not refuse the next.
      const w = await testWorld();
      const method = key.slice(0, key.indexOf(" "));
      const path = await valid.path(w);
      for (const body of [{ bogus: true }, { ...valid.body, name: "\u0007", title: 7 }]) {
        const r = await send(w.app.cadre, method, path, { json: body });
        if (r.status < 400) continue;
        found.push(...ruleIds(key, JSON.stringify(r.body)));
      }
    }
    expect(found).toEqual([]);
    expect(scanned.filter((t) => t.includes('"invalid_input"')).length).toBeGreaterThan(
      Object.keys(VALID_REQUESTS).length,
    );
  });

  it("the OpenAPI document and the locked prompt texts", () => {
    const found = ruleIds("openapi.json", JSON.stringify(openApiDocument(ROUTES)));
    for (const t of lockedTexts()) found.push(...ruleIds(t.id, t.text));
    expect(found).toEqual([]);
  });

  it("the reasons of every context decision a run's events report (recovery, compression, model switch, timeouts)", () => {
    const reasons: string[] = [];
    const overflow = { status: 400, message: "prompt is too long: 210000 tokens > 200000 maximum" };
    const errors = [
      { ...overflow, source: "protocol" as const },
      { status: 408, code: "ETIMEDOUT", message: "request timed out", source: "protocol" as const },
      { code: "ECONNRESET", message: "socket hang up", source: "protocol" as const },
      { status: 500, message: "internal error", source: "protocol" as const },
      { ...overflow, source: "stderr" as const },
    ];
    const evidence = [
      { assistantOutput: false, toolSideEffects: "none" as const },
      { assistantOutput: false, toolSideEffects: "some" as const },
      { assistantOutput: "unknown" as const, toolSideEffects: "unknown" as const },
    ];
    for (const harness of HARNESS_KINDS) {
      for (const error of errors)
        for (const ev of evidence)
          for (const replaysDone of [0, 1])
            for (const extra of [
              {},
              { promptTimeout: true },
              { remote: true },
              { afterCompactionRollover: true },
            ])
              reasons.push(decideRecovery({ harness, error, evidence: ev, replaysDone, ...extra }).reason);
      for (const kind of ["pi-prompt-timeout", "request-timeout", "network", "watchdog"] as TimeoutKind[])
        for (const remote of [false, true])
          reasons.push(timeoutPolicy({ harness, kind, source: "protocol", remote }).reason);
      for (const trigger of ["open", "terminal-error", "next-send"] as const)
        for (const remote of [false, true])
          for (const occupancy of [0.5, 1.05])
            for (const byteBudget of [undefined, { limit: 100, used: 50 }, { limit: 100, used: 400 }])
              for (const strippableImages of [[], [{ id: "img1", bytes: 350 }], [{ id: "img2", bytes: 10 }]])
                for (const [terminalOverflow, deterministicCompactFailure] of [
                  [false, false],
                  [true, false],
                  [false, true],
                ] as const)
                  reasons.push(
                    decideCompression({
                      harness,
                      remote,
                      trigger,
                      ...(byteBudget ? { byteBudget } : {}),
                      occupancy,
                      terminalOverflow,
                      deterministicCompactFailure,
                      strippableImages,
                    }).reason,
                  );
      for (const tokensInWindow of [1_000, 30_000, 40_000])
        for (const [turnRunning, remote, localHandoffAvailable, recoveryInFlight] of [
          [false, false, true, false],
          [true, false, true, false],
          [false, true, false, false],
          [false, false, false, false],
          [false, false, true, true],
        ] as const)
          reasons.push(
            assessModelSwitch({
              harness,
              tokensInWindow,
              targetContextWindow: 32_000,
              turnRunning,
              remote,
              localHandoffAvailable,
              recoveryInFlight,
            }).reason,
          );
    }
    const found = reasons.flatMap((r) => ruleIds("context decision", r));
    expect(found).toEqual([]);
    // The grid reached the decisions a run reports: a replay, the overflow and timeout refusals,
    // an image strip, a handoff rebuild and a model switch's handoff.
    for (const text of [
      "one wire-only replay",
      "context overflow, not replayed",
      "no rollover, no replay",
      "byte budget broken by strippable oversized images",
      "token budget broken",
    ])
      expect(
        reasons.some((r) => r.includes(text)),
        text,
      ).toBe(true);
    expect(new Set(reasons).size).toBeGreaterThan(12);
  });

  it("a model change's answer and the rollover the next wake reports", { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "cadre-rule-ids-"));
    const store = await openStore({ memory: true });
    const app = testAppOver(store, { dataDir });
    try {
      const company = await createCompany(store, {
        name: "Acme Robotics",
        goal: "Build warehouse robots and sell them to logistics companies.",
        connectors: [
          { id: "rehearsal", kind: "offline", enabledModels: [OFFLINE_MODEL_ID, OFFLINE_SMALL_MODEL_ID] },
        ],
        ceoConnectorId: "rehearsal",
      });
      const { ceo } = await loadCompanyState(store, company.id);
      const wake = async (json: Record<string, unknown>) => {
        const woken = await app.request("POST", `/api/agents/${ceo.id}/wake`, { json: { seed: 3, ...json } });
        expect(woken.status).toBe(202);
        await app.cadre.wakes.idle();
        return app.store.listRunEvents((woken.body as { runId: string }).runId);
      };
      const found: string[] = [];
      await wake({ trigger: "start_team_building" });
      // Below 90% of the target window: a plain switch, with the assessment's reason.
      const small = await app.request("PATCH", `/api/agents/${ceo.id}/model`, {
        json: { model: OFFLINE_SMALL_MODEL_ID },
      });
      expect(small.status).toBe(200);
      expect(small.body).toMatchObject({ session: { action: "switch" } });
      found.push(...ruleIds("PATCH model (switch)", JSON.stringify(small.body)));
      await app.request("PATCH", `/api/agents/${ceo.id}/model`, { json: { model: OFFLINE_MODEL_ID } });
      // At or over 90% of it: the handoff first, and the next wake reports the rollover.
      const row = (await app.store.getAgentSession(ceo.id))!;
      const { createdAt: _c, lastUsedAt: _l, ...fields } = row;
      await app.store.putAgentSession({ ...fields, tokensInWindow: 30_000 });
      const big = await app.request("PATCH", `/api/agents/${ceo.id}/model`, {
        json: { model: OFFLINE_SMALL_MODEL_ID },
      });
      expect(big.body).toMatchObject({ session: { action: "handoff-then-switch" } });
      found.push(...ruleIds("PATCH model (handoff-then-switch)", JSON.stringify(big.body)));
      const shown = await app.request("GET", `/api/agents/${ceo.id}/session`);
      found.push(...ruleIds("GET session", JSON.stringify(shown.body)));
      const events = await wake({});
      const rollovers = events.filter((e) => (e.data as { type: string }).type === "rollover");
      expect(rollovers.length).toBe(1);
      for (const e of events)
        found.push(...ruleIds(`run event ${(e.data as { type: string }).type}`, JSON.stringify(e.data)));
      expect(found).toEqual([]);
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
