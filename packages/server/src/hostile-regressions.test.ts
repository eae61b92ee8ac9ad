// Defects the property-based hostile-input suite (hostile.property.test.ts) found, each pinned by
// one example: the request, the 400 naming the field, and nothing written.
import { describe, expect, it } from "vitest";
import { testWorld, type World } from "./testing/harness.js";

async function refused(w: World, method: string, path: string, raw: string, field: string) {
  const before = await w.app.store.counts();
  const r = await w.app.request(method, path, { raw, headers: { "content-type": "application/json" } });
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  // The field itself or a path inside it (config.nested.a: where the depth cap was hit).
  expect(Object.keys(r.body.error.fields ?? {}).some((f) => f === field || f.startsWith(`${field}.`))).toBe(
    true,
  );
  expect(await w.app.store.counts()).toEqual(before);
  return r;
}

describe("hostile input found by the property suite", () => {
  it("connector config nested thousands of levels deep is a 400 naming config, not a 500", async () => {
    const w = await testWorld();
    try {
      const objects = (n: number) => `${'{"a":'.repeat(n)}1${"}".repeat(n)}`;
      const lists = (n: number) => `${"[".repeat(n)}1${"]".repeat(n)}`;
      // Past the connector config's own cap (8 levels below config) and past the body reader's
      // (32 levels): each refusal names config.
      for (const [nested, cap] of [
        [objects(8), /nested deeper than 8 levels below config/],
        [objects(5000), /nested more than 32 levels deep/],
        [lists(100_000), /nested more than 32 levels deep/],
      ] as const) {
        const r = await refused(
          w,
          "POST",
          `/api/companies/${w.companyA}/connectors`,
          `{"kind":"offline","id":"deep","config":{"nested":${nested}}}`,
          "config",
        );
        const [field, why] = Object.entries(r.body.error.fields as Record<string, string>)[0]!;
        expect(field).toMatch(/^config(\.nested|$)/);
        expect(why).toMatch(cap);
      }
      // Eight levels of objects, the config object included, is still a config.
      const ok = await w.app.request("POST", `/api/companies/${w.companyA}/connectors`, {
        json: {
          kind: "offline",
          id: "shallow",
          config: { a: { b: { c: { d: { e: { f: { g: { h: 1 } } } } } } } },
        },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    } finally {
      await w.app.close();
    }
  });

  it("a text of only invisible characters is refused as blank, even where invisibles are allowed", async () => {
    const w = await testWorld();
    try {
      for (const goal of ["\u200b", " \u2060\u200b \u200d "]) {
        const r = await refused(
          w,
          "POST",
          "/api/companies",
          JSON.stringify({ name: "Blank Co", goal }),
          "goal",
        );
        expect(r.body.error.fields.goal).toMatch(/blank/);
      }
      const note = await refused(
        w,
        "POST",
        `/api/approvals/${w.approvalA}/approve`,
        JSON.stringify({ note: "\u200b\n\u200b" }),
        "note",
      );
      expect(note.body.error.message).toMatch(/blank/);
      // Invisible characters inside visible text stay allowed in free text (e.g. emoji joiners).
      const ok = await w.app.request("POST", "/api/companies", {
        json: { name: "Joined Co", goal: "Team 👩\u200d💻 builds." },
      });
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    } finally {
      await w.app.close();
    }
  });
});
