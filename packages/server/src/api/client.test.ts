// The one API client (CLI --server, dashboard) against a real server on a loopback port: typed
// calls, the error envelope read into ApiError (code, message, each bad field), 401 reported to
// onUnauthorized, an unreachable server; and that the client module carries no server code.
import { readFileSync } from "node:fs";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../server.js";
import { ApiError, createApiClient, fillPath } from "./client.js";

let store: Store;
let server: RunningServer;
beforeEach(async () => {
  store = await openStore({ memory: true });
  server = await startServer({ store, port: 0, env: {}, log: () => {} });
});
afterEach(async () => {
  await server.close();
  await store.close();
});

describe("createApiClient", () => {
  it("calls endpoints by their route key: path parameters, query and body in, the view out", async () => {
    const api = createApiClient({ baseUrl: server.url, token: server.operatorToken });
    const created = await api.call("POST /api/companies", { body: { name: "Typed Co", goal: "Robots" } });
    expect(created).toMatchObject({ name: "Typed Co", ceoMode: "team-building" });
    const company = await api.call("GET /api/companies/{id}", { params: { id: created.id } });
    expect(company.ceoAgentId).toBe(created.ceoAgentId);
    const active = await api.call("GET /api/companies/{id}/agents", {
      params: { id: created.id },
      query: { status: "active" },
    });
    expect(active.items.map((a) => a.isCeo)).toEqual([true]);
    expect(active.nextCursor).toBeNull();
    const key = await api.call("POST /api/agents/{id}/keys", { params: { id: created.ceoAgentId } });
    const revoked = await api.call("DELETE /api/agents/{id}/keys/{keyId}", {
      params: { id: created.ceoAgentId, keyId: key.id },
    });
    expect(revoked.revokedAt).not.toBeNull();
  });

  it("reads the error envelope: status, code, message and each bad field", async () => {
    const api = createApiClient({ baseUrl: server.url, token: server.operatorToken });
    const refused = await api
      .call("POST /api/companies", { body: { name: "A\u200bB" } })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 400,
      code: "invalid_input",
      request: "POST /api/companies",
      fields: { name: expect.stringMatching(/U\+200B/) },
    });
    const missing = await api
      .call("GET /api/approvals/{id}", { params: { id: "apr_missing" } })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 404, code: "not_found" });
  });

  it("a 401 goes to onUnauthorized with the server's reason; an unreachable server is status 0", async () => {
    const seen: ApiError[] = [];
    const wrong = createApiClient({
      baseUrl: server.url,
      token: "cadre_op_wrong-wrong-wrong",
      onUnauthorized: (e) => seen.push(e),
    });
    await expect(wrong.call("GET /api/companies")).rejects.toMatchObject({ status: 401 });
    expect(seen.map((e) => e.message)).toEqual(["the token is not valid: it is unknown or was revoked"]);
    const down = createApiClient({ baseUrl: "http://127.0.0.1:9", token: "t" });
    await expect(down.call("GET /api/companies")).rejects.toMatchObject({
      status: 0,
      code: "unreachable",
      message: expect.stringMatching(/^the Cadre API at http:\/\/127\.0\.0\.1:9 did not answer/),
    });
  });

  it("fills path templates, encoding each parameter, and refuses a missing one", () => {
    expect(fillPath("/api/agents/{id}/keys/{keyId}", { id: "a/b", keyId: "k 1" })).toBe(
      "/api/agents/a%2Fb/keys/k%201",
    );
    expect(() => fillPath("/api/agents/{id}", {})).toThrow(/path parameter id is missing/);
  });

  it("the client module imports types only, so a browser bundle carries no server code", () => {
    for (const file of ["client.ts", "endpoints.ts"]) {
      const source = readFileSync(new URL(`./${file}`, import.meta.url), "utf8");
      const statements = source.match(/^(import|export) [^;]*? from "[^"]+";/gms) ?? [];
      expect(statements.length, file).toBeGreaterThan(0);
      for (const s of statements) expect(s, file).toMatch(/^(import|export) type /);
    }
  });
});
