// The spec's rule ids (MC-n, C4-n, OP-n) are for the people who build Cadre: they stay in tests
// and comments, never in text a model or an API user reads. This scans what those read — every
// company tool's definition (name, description, input schema), the tools' refusals, every write
// route's refusal of a bad body, the OpenAPI document and every locked prompt text — for them.
import { companyTools, lockedTexts } from "@cadre/company";
import { COMPANY_TOOL_NAMES } from "@cadre/company";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi.js";
import { ROUTES } from "./routes/index.js";
import { send, testWorld } from "./testing/harness.js";
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
});
