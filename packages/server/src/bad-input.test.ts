// Bad-input tables for every POST route: malformed JSON, wrong media type, wrong types, missing and
// extra fields, oversized strings and bodies, control and bidi characters, `__proto__` keys → a 4xx
// naming the problem, and row counts unchanged. The per-field cases are derived from each route's
// own body schema, so a field added to a schema is covered without editing this file.
import { describe, expect, it } from "vitest";
import { textLayoutOf, type TSchema } from "@cadre/model";
import { DEFAULT_MAX_BODY_BYTES } from "./http/body.js";
import { ROUTES } from "./routes/index.js";
import { type RequestOptions, send, testWorld } from "./testing/harness.js";
import { VALID_REQUESTS } from "./testing/write-routes.js";

/** A valid body and a concrete path for every POST and PUT route, in world A (shared with the hostile suite). */
// (Routes without a body, such as stopping a run, have no body to get wrong.)
const VALID = Object.fromEntries(
  Object.entries(VALID_REQUESTS)
    .filter(([key]) => key.startsWith("POST ") || key.startsWith("PUT "))
    .filter(([key]) => ROUTES.find((r) => `${r.method.toUpperCase()} ${r.path}` === key)?.body)
    .map(([key, v]) => [key.slice(key.indexOf(" ") + 1), { path: v.path, body: v.body ?? {} }]),
);

interface Case {
  name: string;
  options: RequestOptions;
  status: number;
  /** A field the error must name. */
  field?: string;
}

const json = (body: unknown): RequestOptions => ({ json: body });
const raw = (text: string | Uint8Array, type = "application/json"): RequestOptions => ({
  raw: text,
  headers: { "content-type": type },
});

function genericCases(valid: Record<string, unknown>): Case[] {
  const text = JSON.stringify(valid);
  const big = JSON.stringify({ ...valid, padding: "x".repeat(DEFAULT_MAX_BODY_BYTES) });
  return [
    { name: "malformed JSON", options: raw(text.slice(0, -1)), status: 400 },
    { name: "trailing garbage", options: raw(`${text} {}`), status: 400 },
    { name: "text/plain", options: raw(text, "text/plain"), status: 415 },
    { name: "form encoded", options: raw("name=x", "application/x-www-form-urlencoded"), status: 415 },
    { name: "no content type", options: { raw: text }, status: 415 },
    { name: "an array", options: json([valid]), status: 400 },
    { name: "null", options: raw("null"), status: 400 },
    { name: "a string", options: raw('"hello"'), status: 400 },
    {
      name: "invalid UTF-8",
      options: raw(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])),
      status: 400,
    },
    { name: "an extra field", options: json({ ...valid, admin: true }), status: 400, field: "admin" },
    {
      name: "a __proto__ key",
      options: raw(`{"__proto__": {"isCeo": true}, ${text.slice(1)}`),
      status: 400,
      field: "__proto__",
    },
    {
      name: "a constructor key",
      options: json({ ...valid, constructor: { prototype: {} } }),
      status: 400,
      field: "constructor",
    },
    { name: "a body over the limit", options: raw(big), status: 413 },
  ];
}

const WRONG_TYPES: unknown[] = [42, true, ["x"], { x: 1 }];

/** A field's schema, seen through Type.Optional (the same object with a marker). */
type FieldSchema = TSchema & Record<string, any>;

function fieldCases(body: TSchema, valid: Record<string, unknown>): Case[] {
  const cases: Case[] = [];
  const schema = body as FieldSchema;
  const required = new Set<string>(schema["required"] ?? []);
  for (const [field, declared] of Object.entries(schema["properties"] as Record<string, FieldSchema>)) {
    // A nullable number (a budget's limit: null means none) gets the number's cases.
    const members = Array.isArray(declared["anyOf"]) ? (declared["anyOf"] as FieldSchema[]) : [];
    const nullable = members.length === 2 && members.some((m) => m["type"] === "null");
    const inner = members.find((m) => m["type"] === "number" || m["type"] === "integer");
    const f: FieldSchema = nullable && inner ? inner : declared;
    const withField = (v: unknown) => json({ ...valid, [field]: v });
    if (required.has(field)) {
      const { [field]: _dropped, ...rest } = valid;
      cases.push({ name: `${field} missing`, options: json(rest), status: 400, field });
      cases.push({ name: `${field} null`, options: withField(null), status: 400, field });
    }
    if (Array.isArray(f["anyOf"])) {
      for (const v of [...WRONG_TYPES, "🦄 nope"])
        cases.push({ name: `${field} = ${JSON.stringify(v)}`, options: withField(v), status: 400, field });
      continue;
    }
    switch (f["type"]) {
      case "string":
        for (const v of WRONG_TYPES)
          cases.push({ name: `${field} = ${JSON.stringify(v)}`, options: withField(v), status: 400, field });
        cases.push({
          name: `${field} too long`,
          options: withField("é".repeat(f["maxLength"] + 1)),
          status: 400,
          field,
        });
        cases.push({ name: `${field} blank`, options: withField("   "), status: 400, field });
        cases.push({ name: `${field} with NUL`, options: withField("a\u0000b"), status: 400, field });
        cases.push({
          name: `${field} with an escape sequence`,
          options: withField("a\u001b[31mb"),
          status: 400,
          field,
        });
        cases.push({
          name: `${field} with a bidi override`,
          options: withField("a\u202eb"),
          status: 400,
          field,
        });
        // JSON's "\ud800" is a lone surrogate once parsed; it never reaches a store.
        cases.push({
          name: `${field} with a lone surrogate`,
          options: raw(JSON.stringify({ ...valid, [field]: "@@" }).replace("@@", "A\\ud800B")),
          status: 400,
          field,
        });
        cases.push({ name: `${field} with U+2028`, options: withField("a\u2028b"), status: 400, field });
        if (textLayoutOf(f) === "line") {
          cases.push({ name: `${field} with a newline`, options: withField("a\nb"), status: 400, field });
          cases.push({
            name: `${field} with a zero width space`,
            options: withField("a\u200bb"),
            status: 400,
            field,
          });
        }
        break;
      case "boolean":
        for (const v of ["true", 1, 0, [true], {}])
          cases.push({ name: `${field} = ${JSON.stringify(v)}`, options: withField(v), status: 400, field });
        break;
      case "integer":
        for (const v of ["3", 1.5, -1, f["maximum"] + 1, [1]])
          cases.push({ name: `${field} = ${JSON.stringify(v)}`, options: withField(v), status: 400, field });
        break;
      case "number":
        for (const v of ["3", -1, f["maximum"] + 1, [1], {}])
          cases.push({ name: `${field} = ${JSON.stringify(v)}`, options: withField(v), status: 400, field });
        break;
      case "array":
        for (const v of [
          "x",
          [1],
          [""],
          ["a\u0000"],
          Array(f["maxItems"] + 1).fill("offline-scripted-1"),
          ["x".repeat(f["items"]["maxLength"] + 1)],
        ]) {
          cases.push({
            name: `${field} = ${JSON.stringify(v).slice(0, 40)}`,
            options: withField(v),
            status: 400,
            field,
          });
        }
        break;
      case "object":
        for (const v of ["x", [1], 3])
          cases.push({ name: `${field} = ${JSON.stringify(v)}`, options: withField(v), status: 400, field });
        cases.push({
          name: `${field} with many keys`,
          options: withField(
            Object.fromEntries(Array.from({ length: f["maxProperties"] + 1 }, (_, i) => [`k${i}`, i])),
          ),
          status: 400,
          field,
        });
        cases.push({
          name: `${field} with __proto__`,
          options: raw(
            JSON.stringify({ ...valid, [field]: {} }).replace(
              `"${field}":{}`,
              `"${field}":{"__proto__":{"x":1}}`,
            ),
          ),
          status: 400,
          field,
        });
        break;
      default:
        throw new Error(`bad-input.test: no cases for the ${String(f["type"])} field ${field}`);
    }
  }
  return cases;
}

const POSTS = ROUTES.filter((r) => (r.method === "post" || r.method === "put") && r.body);

describe("bad input on every POST and PUT route", () => {
  it("has a valid body for every POST and PUT route", () => {
    expect(Object.keys(VALID).sort()).toEqual(POSTS.map((r) => r.path).sort());
  });

  for (const r of POSTS) {
    const method = r.method === "put" ? "PUT" : "POST";
    it(`${method} ${r.path}`, async () => {
      const valid = VALID[r.path]!;
      const w = await testWorld();
      try {
        const path = await valid.path(w);
        const before = await w.app.store.counts();
        // A PUT changes a row in place: what it reads back must not move either.
        const readBack = async () => (method === "PUT" ? (await send(w.app.cadre, "GET", path)).body : null);
        const beforeRow = await readBack();
        const cases = [...genericCases(valid.body), ...fieldCases(r.body!, valid.body)];
        for (const c of cases) {
          const response = await send(w.app.cadre, method, path, c.options);
          expect(response.status, c.name).toBe(c.status);
          expect(response.body?.error?.code, c.name).toEqual(expect.any(String));
          expect(response.body.error.message.length, c.name).toBeGreaterThan(10);
          if (c.field !== undefined) {
            // The field itself, or a part of it (`enabledModels[0]`, `config.x`).
            const named = Object.keys(response.body.error.fields ?? {}).map((k) => k.split(/[.[]/)[0]);
            expect(named, c.name).toContain(c.field);
          }
        }
        expect(await w.app.store.counts()).toEqual(before);
        expect(await readBack()).toEqual(beforeRow);
        // The valid body is accepted: the table above refuses for the reason it names, not by accident.
        const ok = await send(w.app.cadre, method, path, json(valid.body));
        expect(ok.status, JSON.stringify(ok.body)).toBeLessThan(300);
      } finally {
        await w.app.close();
      }
    });
  }

  it("a chunked body over the limit is cut off while it streams, with no Content-Length to trust", async () => {
    const w = await testWorld();
    try {
      const before = await w.app.store.counts();
      const chunk = new TextEncoder().encode(`{"name": "${"x".repeat(64 * 1024)}`);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 10) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const response = await w.app.cadre.app.request("/api/companies", {
        method: "POST",
        body,
        duplex: "half",
        headers: {
          "content-type": "application/json",
          authorization: "Bearer test-operator-token-0123456789abcdef",
        },
      } as RequestInit);
      expect(response.status).toBe(413);
      expect(sent).toBeLessThan(10);
      expect(await w.app.store.counts()).toEqual(before);
    } finally {
      await w.app.close();
    }
  });

  it("accepts unicode that is not a control character, counted in code points", async () => {
    const w = await testWorld();
    try {
      const r = await w.app.request("POST", "/api/companies", {
        json: { name: "🦄".repeat(100), goal: "Données\tet\nemoji 👩‍💻" },
      });
      expect(r.status).toBe(201);
      expect(r.body.name).toBe("🦄".repeat(100));
    } finally {
      await w.app.close();
    }
  });
});
