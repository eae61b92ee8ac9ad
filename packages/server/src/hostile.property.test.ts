// Property-based hostile input over every write route (POST, PATCH, DELETE of ROUTES): mutations of
// a valid request generated from the route's own body schema (@cadre/model/testing), and hostile
// path parameters. Whatever is sent: never a 5xx; a refusal (4xx) names the field it refuses — one
// of the body's, or the body itself — and leaves every table exactly as it was (row counts and
// contents); an acceptance (2xx) stores what it answers, as a later GET reads it. Fixed seed by
// default; CADRE_FC_SEED=N replays another (fast-check prints the seed with any failure).
import fc from "fast-check";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { hostileInput, propertyParameters, toJson } from "@cadre/model/testing";
import { ROUTES } from "./routes/index.js";
import { send, type TestResponse, testWorld, type World } from "./testing/harness.js";
import { routeKey, validRequestOf, VALID_REQUESTS, WRITE_ROUTES } from "./testing/write-routes.js";

const RUNS = 40;
const WRITES = WRITE_ROUTES(ROUTES);

/** Every row of every table, as the store holds it: what a refusal must leave untouched. */
async function snapshot(w: World): Promise<Record<string, unknown[]>> {
  const db = (w.app.store as unknown as { db: Kysely<any> }).db;
  const out: Record<string, unknown[]> = {};
  for (const table of Object.keys(await w.app.store.counts()))
    out[table] = await db.selectFrom(table).selectAll().execute();
  return out;
}

/** The paths a refusal names (`name`, `config.x`, `enabledModels[0]`, "" for the body itself). */
function namedFields(r: TestResponse): string[] {
  return Object.keys(r.body?.error?.fields ?? {});
}

/** Whether a named path is `field` or inside it (field names may hold "." themselves). */
const isIn = (path: string, field: string) =>
  path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);

async function world(): Promise<World> {
  const w = await testWorld();
  // Room for every hire a run may make: a full team is a refusal about the team, not the input.
  const company = await w.app.store.getCompany(w.companyA);
  await w.app.store.updateCompanySettings(w.companyA, { ...company!.settings, maxTeamSize: 200 });
  return w;
}

/** A 2xx stored what it answered: the answer and a later GET agree. */
async function expectReadBack(w: World, key: string, answer: TestResponse, path: string, label: string) {
  const [said, read] = await VALID_REQUESTS[key]!.readBack(w, answer, path);
  expect(read, `${label}: read back after ${answer.status}`).toEqual(said);
}

/** Refused: a 4xx with a readable error, and nothing written. */
function expectRefusal(r: TestResponse, label: string) {
  expect(r.status, `${label}: ${JSON.stringify(r.body).slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(r.status, label).toBeLessThan(500);
  expect(r.body?.error?.code, label).toEqual(expect.any(String));
  expect(r.body.error.message.length, label).toBeGreaterThan(10);
}

describe("hostile input on every write route", () => {
  it("has a valid request for every write route", () => {
    const missing = WRITES.filter((r) => !VALID_REQUESTS[routeKey(r)]).map(routeKey);
    expect(
      missing,
      `add a valid request for each to VALID_REQUESTS in packages/server/src/testing/write-routes.ts`,
    ).toEqual([]);
    expect(Object.keys(VALID_REQUESTS).sort()).toEqual(WRITES.map(routeKey).sort());
  });

  for (const r of WRITES.filter((x) => x.body)) {
    const key = routeKey(r);
    it(`${key}: mutations of its body`, async () => {
      const valid = validRequestOf(r);
      const w = await world();
      try {
        await fc.assert(
          fc.asyncProperty(hostileInput(r.body, valid.body ?? {}), async (c) => {
            const path = await valid.path(w);
            await w.app.cadre.wakes.idle();
            const before = await snapshot(w);
            const response = await send(w.app.cadre, r.method.toUpperCase(), path, {
              raw: toJson(c.body),
              headers: { "content-type": "application/json" },
            });
            const label = `${key} with ${c.label}`;
            expect(response.status, `${label}: ${JSON.stringify(response.body).slice(0, 300)}`).toBeLessThan(
              500,
            );
            if (response.status < 300) {
              expect(c.invalid, `${label}: accepted an input invalid by construction`).toBe(false);
              await w.app.cadre.wakes.idle();
              await expectReadBack(w, key, response, path, label);
              return;
            }
            expectRefusal(response, label);
            expect(await snapshot(w), `${label}: a refusal changed the tables`).toEqual(before);
            if (response.status === 409) return; // the state refused it (already decided, held, taken)
            const named = namedFields(response);
            // A refusal of the body itself (not an object, not JSON) may name no field: it names the body.
            if (c.target === "" && named.length === 0) return;
            if (c.invalid)
              expect(
                named.filter((n) => isIn(n, c.target)),
                `${label}: the refusal names the field (${JSON.stringify(response.body.error)})`,
              ).not.toEqual([]);
            const body = c.body;
            const known = new Set([
              "",
              ...Object.keys((r.body as { properties?: object }).properties ?? {}),
              ...(body !== null && typeof body === "object" ? Object.keys(body) : []),
            ]);
            expect(
              named.filter((n) => [...known].some((k) => isIn(n, k))),
              `${label}: the refusal names a field of the body (${JSON.stringify(response.body.error)})`,
            ).not.toEqual([]);
          }),
          propertyParameters(RUNS),
        );
      } finally {
        await w.app.close();
      }
    });
  }

  const HOSTILE_IDS = fc.oneof(
    fc.string({ unit: "binary", minLength: 1, maxLength: 30 }),
    fc.constantFrom(
      "..",
      ".",
      "%00",
      "%2e%2e%2f",
      "%ff",
      "%ud800",
      "x".repeat(5000),
      "agt_%E2%80%AE",
      "null",
    ),
  );

  for (const r of WRITES.filter((x) => x.path.includes("{"))) {
    const key = routeKey(r);
    it(`${key}: hostile path parameters`, async () => {
      const valid = validRequestOf(r);
      const w = await world();
      try {
        await fc.assert(
          fc.asyncProperty(HOSTILE_IDS, fc.nat(), async (id, which) => {
            const params = [...r.path.matchAll(/\{(\w+)\}/g)];
            const template = params[which % params.length]![0];
            const concrete = await valid.path(w);
            // Put the hostile id where the chosen parameter is in the concrete path.
            const segments = r.path.split("/");
            const index = segments.indexOf(template);
            const parts = concrete.split("/");
            parts[index] = /%/.test(id) ? id : encodeURIComponent(id);
            const path = parts.join("/");
            await w.app.cadre.wakes.idle();
            const before = await snapshot(w);
            const response = await send(w.app.cadre, r.method.toUpperCase(), path, {
              ...(valid.body ? { json: valid.body } : {}),
            });
            const label = `${r.method.toUpperCase()} ${path.slice(0, 200)}`;
            expectRefusal(response, label);
            expect(await snapshot(w), `${label}: a refusal changed the tables`).toEqual(before);
          }),
          propertyParameters(RUNS / 2),
        );
      } finally {
        await w.app.close();
      }
    });
  }
});
