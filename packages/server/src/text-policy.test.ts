// Over HTTP: the probes that got through before, each now refused with the
// field and the character named, and nothing written — on every text route, with the same policy
// the tools, the MCP server, the CLI and scenario files apply (@cadre/model text-policy.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HIRE, testWorld, type World } from "./testing/harness.js";

let w: World;
beforeEach(async () => {
  w = await testWorld();
});
afterEach(async () => {
  await w.app.close();
});

/** The body as JSON text with `\ud800` written as JSON writes it: JSON.parse makes it a lone surrogate. */
function withLoneSurrogate(body: Record<string, unknown>, field: string): string {
  return JSON.stringify({ ...body, [field]: "@@" }).replace("@@", "A\\ud800B");
}

const post = (path: string, raw: string) =>
  w.app.request("POST", path, { raw, headers: { "content-type": "application/json" } });

describe("lone surrogates", () => {
  it('{"name":"A\\ud800B"} is refused on every text field, three times over, and nothing is stored', async () => {
    const before = await w.app.store.counts();
    const probes: Array<[string, Record<string, unknown>, string]> = [
      [`/api/companies/${w.companyA}/agents`, { ...HIRE, name: "x" }, "name"],
      [`/api/companies/${w.companyA}/agents`, { ...HIRE, name: "Dev" }, "role"],
      [`/api/companies/${w.companyA}/agents`, { ...HIRE, name: "Dev" }, "description"],
      ["/api/companies", { name: "x" }, "name"],
      ["/api/companies", { name: "x" }, "goal"],
      [`/api/companies/${w.companyA}/approvals`, { type: "hire_agent", title: "t", payload: "p" }, "title"],
      [`/api/companies/${w.companyA}/approvals`, { type: "hire_agent", title: "t", payload: "p" }, "payload"],
      [`/api/agents/${w.ctoA}/keys`, { label: "x" }, "label"],
      [`/api/approvals/${w.approvalA}/approve`, {}, "note"],
      // The task routes, added after the probe: the same policy on every text field.
      [`/api/companies/${w.companyA}/tasks`, { title: "x" }, "title"],
      [`/api/companies/${w.companyA}/tasks`, { title: "Plan" }, "description"],
      ["/api/tasks/task_a/comments", { body: "x" }, "body"],
      ["/api/tasks/task_a/close", { status: "done", deliverable: "x" }, "deliverable"],
    ];
    for (const [path, body, field] of probes) {
      for (let i = 0; i < 3; i++) {
        const r = await post(path, withLoneSurrogate(body, field));
        expect(r.status, `${path} ${field}`).toBe(400);
        expect(r.body.error.fields[field], `${path} ${field}`).toMatch(/^contains U\+D800, a lone surrogate/);
        expect(r.body.error.message).toContain(`\`${field}\``);
      }
    }
    expect(await w.app.store.counts()).toEqual(before);
  });
});

describe("invisible look-alikes of a name", () => {
  it('after "CTO", C\\u200bTO, CT\\u200cO, CTO\\u200e, C\\u061cTO and C\\u2060TO are refused, naming the character', async () => {
    const before = await w.app.store.counts();
    const cases: Array<[string, string]> = [
      ["C\u200bTO", "U+200B (ZERO WIDTH SPACE)"],
      ["CT\u200cO", "U+200C (ZERO WIDTH NON-JOINER)"],
      ["CTO\u200e", "U+200E (LEFT-TO-RIGHT MARK)"],
      ["C\u061cTO", "U+061C (ARABIC LETTER MARK)"],
      ["C\u2060TO", "U+2060 (WORD JOINER)"],
      ["CT\ufeffO", "U+FEFF (ZERO WIDTH NO-BREAK SPACE)"],
    ];
    for (const [name, character] of cases) {
      const r = await w.app.request("POST", `/api/companies/${w.companyA}/agents`, {
        json: { ...HIRE, name },
      });
      expect(r.status, JSON.stringify(name)).toBe(400);
      expect(r.body.error.fields.name).toContain(`contains ${character}, an invisible character`);
      expect(r.body.error.fields.name).toMatch(/one line of visible characters .* is allowed/);
    }
    expect(await w.app.store.counts()).toEqual(before);
  });

  it('visible variants of "CTO" (case, full-width letters, spacing) are refused as the name they read as', async () => {
    const before = await w.app.store.counts();
    for (const name of ["cto", "ＣＴＯ", "Cto"]) {
      const r = await w.app.request("POST", `/api/companies/${w.companyA}/agents`, {
        json: { ...HIRE, name },
      });
      expect(r.status, name).toBe(400);
      expect(r.body.error.fields.name).toMatch(
        /(already the name|reads as "CTO", already the name) of an active agent/,
      );
    }
    expect(await w.app.store.counts()).toEqual(before);
  });
});

describe("hidden text and texts with nothing to read", () => {
  it("tag characters and other invisibles are refused in free text too; noncharacters, annotation controls and combining marks alone in one-line text; nothing is stored", async () => {
    const before = await w.app.store.counts();
    // Unicode tag characters spell invisible text a model still reads ("ignore previous…").
    const tags = [..."ignore"].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const probes: Array<[string, Record<string, unknown>, string, RegExp]> = [
      [
        "/api/tasks/task_a/close",
        { status: "done", deliverable: `Plan.${tags}` },
        "deliverable",
        /U\+E0069 \(TAG CHARACTER\), an invisible character/,
      ],
      [
        `/api/companies/${w.companyA}/tasks`,
        { title: "Plan", description: `Do it.\u200b` },
        "description",
        /U\+200B \(ZERO WIDTH SPACE\)/,
      ],
      ["/api/tasks/task_a/comments", { body: `ok${tags}` }, "body", /TAG CHARACTER/],
      [
        `/api/companies/${w.companyA}/tasks`,
        { title: "\u0301\u0308\u0327" },
        "title",
        /only combining marks/,
      ],
      [
        `/api/companies/${w.companyA}/tasks`,
        { title: "Plan \ufff9note\ufffb" },
        "title",
        /U\+FFF9, an interlinear annotation control/,
      ],
      [`/api/companies/${w.companyA}/tasks`, { title: "Plan\uffff" }, "title", /U\+FFFF, a noncharacter/],
    ];
    for (const [path, json, field, why] of probes) {
      const r = await w.app.request("POST", path, { json });
      expect(r.status, `${path} ${field}`).toBe(400);
      expect(r.body.error.fields[field], `${path} ${field}`).toMatch(why);
    }
    expect(await w.app.store.counts()).toEqual(before);
  });

  it("what real writing needs passes: accents, emoji sequences with joiners and selectors, right-to-left marks", async () => {
    const goal = "Team 👩‍💻 ❤️\nשלום\u200f — done";
    const r = await w.app.request("POST", "/api/companies", { json: { name: "Café Co", goal } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ name: "Café Co", goal });
  });
});
