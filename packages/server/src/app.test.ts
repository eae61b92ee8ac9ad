// Route tests through the app object (no port): every route's success path, over a real store.
import { hireAgentSchema, fileApprovalSchema } from "@cadre/company";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { apiCompany, apiKey, HIRE, OPERATOR_TOKEN, type TestApp, testApp } from "./testing/harness.js";
import { ROUTES } from "./routes/index.js";

let app: TestApp;
beforeEach(async () => {
  app = await testApp();
});
afterEach(async () => app.close());

async function untilRunEnds(runId: string) {
  for (;;) {
    const r = await app.request("GET", `/api/runs/${runId}`);
    if (r.body.status !== "running") return r.body;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("companies and connectors", () => {
  it("creates a company with its CEO and a ready offline connector; lists and reads it", async () => {
    const created = await app.request("POST", "/api/companies", {
      json: { name: "  Acme  ", goal: "Robots." },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Acme",
      goal: "Robots.",
      ceoMode: "team-building",
      toolsInMode: ["hire_agent", "reply_to_operator"],
      toolsOffered: ["hire_agent", "file_approval", "reply_to_operator"],
      settings: { profile: "semantic" },
    });
    const id = created.body.id as string;
    expect((await app.request("GET", "/api/companies")).body.items.map((c: { id: string }) => c.id)).toEqual([
      id,
    ]);
    expect((await app.request("GET", `/api/companies/${id}`)).body).toMatchObject({
      id,
      ceoAgentId: created.body.ceoAgentId,
    });
    const connectors = await app.request("GET", `/api/companies/${id}/connectors`);
    expect(connectors.body.items).toEqual([
      expect.objectContaining({
        id: "offline",
        kind: "offline",
        ready: true,
        enabledModels: ["offline-scripted-1"],
      }),
    ]);
    const agents = await app.request("GET", `/api/companies/${id}/agents`);
    expect(agents.body.items).toEqual([expect.objectContaining({ isCeo: true, via: "system" })]);
  });

  it("adds a connector, says why it is not ready, and refuses a secret in config", async () => {
    const { id } = await apiCompany(app);
    const added = await app.request("POST", `/api/companies/${id}/connectors`, {
      json: { kind: "anthropic", config: { apiKeyEnv: "MY_ANTHROPIC_KEY" } },
    });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      id: "anthropic",
      ready: false,
      missing: "MY_ANTHROPIC_KEY is not set",
      config: { apiKeyEnv: "MY_ANTHROPIC_KEY" },
    });
    const secret = await app.request("POST", `/api/companies/${id}/connectors`, {
      json: { id: "oa", kind: "openai", config: { apiKey: "sk-live-123" } },
    });
    expect(secret.status).toBe(400);
    expect(JSON.stringify(secret.body)).not.toContain("sk-live-123");
    const again = await app.request("POST", `/api/companies/${id}/connectors`, {
      json: { kind: "anthropic" },
    });
    expect(again.status).toBe(409);
    expect(
      (await app.request("GET", `/api/companies/${id}/connectors`)).body.items.map(
        (c: { id: string }) => c.id,
      ),
    ).toEqual(["offline", "anthropic"]);
  });
});

describe("the legacy POST routes (C4-6)", () => {
  it("hire through the same schema, rules and handler as the tool; the record says via http", async () => {
    const { id, ceoAgentId } = await apiCompany(app);
    const byOperator = await app.request("POST", `/api/companies/${id}/agents`, { json: HIRE });
    expect(byOperator.status).toBe(201);
    expect(byOperator.body).toMatchObject({
      ...HIRE,
      companyId: id,
      via: "http",
      reportsTo: ceoAgentId,
      isCeo: false,
      status: "active",
    });
    const token = await apiKey(app, ceoAgentId);
    const byCeo = await app.request("POST", `/api/companies/${id}/agents`, {
      token,
      json: { ...HIRE, name: "CMO", role: "Chief Marketing Officer", department: "marketing" },
    });
    expect(byCeo.status).toBe(201);
    expect(byCeo.body).toMatchObject({ via: "http", reportsTo: ceoAgentId });
    const hired = (await app.store.listActivity(id, { type: "agent.hired" })).map((a) => a.data);
    expect(hired).toEqual([
      expect.objectContaining({ via: "http", hiredBy: null }),
      expect.objectContaining({ via: "http", hiredBy: ceoAgentId }),
    ]);
    // The handler's rules: a name already taken is refused, naming the field, and nothing is written.
    const before = await app.store.counts();
    const taken = await app.request("POST", `/api/companies/${id}/agents`, {
      json: { ...HIRE, name: "cto" },
    });
    expect(taken.status).toBe(400);
    expect(taken.body.error).toMatchObject({
      code: "invalid_input",
      fields: { name: expect.stringContaining("already") },
    });
    expect(await app.store.counts()).toEqual(before);
  });

  it("files an approval with via http; the operator decides it; a second decision is a 409", async () => {
    const { id } = await apiCompany(app);
    await app.request("POST", `/api/companies/${id}/agents`, { json: HIRE });
    const filed = await app.request("POST", `/api/companies/${id}/approvals`, {
      json: { type: "approve_ceo_strategy", title: "Plan", payload: "1. Build\n2. Sell" },
    });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({
      type: "approve_ceo_strategy",
      status: "pending",
      via: "http",
      companyId: id,
    });
    expect((await app.request("GET", `/api/companies/${id}`)).body.ceoMode).toBe("awaiting-approval");
    const decided = await app.request("POST", `/api/approvals/${filed.body.id}/request-revision`, {
      json: { note: "Add finance" },
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({
      approval: { status: "revision_requested", decisionNote: "Add finance" },
      modeBefore: "awaiting-approval",
      modeAfter: "revising",
    });
    const again = await app.request("POST", `/api/approvals/${filed.body.id}/approve`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("conflict");
    const one = await app.request("GET", `/api/approvals/${filed.body.id}`);
    expect(one.body.history.map((h: { toStatus: string }) => h.toStatus)).toEqual([
      "pending",
      "revision_requested",
    ]);
    expect((await app.request("GET", `/api/companies/${id}/approvals?status=pending`)).body.items).toEqual(
      [],
    );
  });

  it("answer 410 naming the tool once retired (G5), while GET and DELETE stay", async () => {
    await app.close();
    app = await testApp({ retireLegacyPosts: true });
    const { id } = await apiCompany(app);
    const hire = await app.request("POST", `/api/companies/${id}/agents`, { json: HIRE });
    expect(hire.status).toBe(410);
    expect(hire.body.error.message).toContain("hire_agent");
    const file = await app.request("POST", `/api/companies/${id}/approvals`, { json: { bogus: 1 } });
    expect(file.status).toBe(410);
    expect(file.body.error.message).toContain("file_approval");
    expect((await app.request("GET", `/api/companies/${id}/agents`)).status).toBe(200);
  });
});

describe("agents and keys", () => {
  it("removes an agent (terminated, keys revoked); the CEO cannot be removed", async () => {
    const { id, ceoAgentId } = await apiCompany(app);
    const cto = (await app.request("POST", `/api/companies/${id}/agents`, { json: HIRE })).body;
    const token = await apiKey(app, cto.id);
    expect((await app.request("GET", `/api/agents/${cto.id}`, { token })).status).toBe(200);
    const removed = await app.request("DELETE", `/api/agents/${cto.id}`);
    expect(removed.body).toMatchObject({ id: cto.id, status: "terminated" });
    expect((await app.request("GET", `/api/agents/${cto.id}`, { token })).status).toBe(401);
    expect((await app.request("DELETE", `/api/agents/${cto.id}`)).status).toBe(200);
    expect(
      (await app.request("GET", `/api/companies/${id}/agents?status=active`)).body.items.map(
        (a: { id: string }) => a.id,
      ),
    ).toEqual([ceoAgentId]);
    expect((await app.request("DELETE", `/api/agents/${ceoAgentId}`)).status).toBe(409);
    expect((await app.store.listActivity(id)).map((a) => a.type)).toEqual([
      "company.created",
      "agent.hired",
      "mode.changed",
      "agent.terminated",
      "mode.changed",
    ]);
  });

  it("mints keys shown once and stored hashed; a revoked key stops working at once", async () => {
    const { id, ceoAgentId } = await apiCompany(app);
    const minted = await app.request("POST", `/api/agents/${ceoAgentId}/keys`, { json: { label: "laptop" } });
    expect(minted.status).toBe(201);
    expect(minted.body).toMatchObject({
      agentId: ceoAgentId,
      companyId: id,
      label: "laptop",
      revokedAt: null,
      token: expect.stringMatching(/^cadre_agt_[\w-]{43}$/),
    });
    const token = minted.body.token as string;
    const listed = await app.request("GET", `/api/agents/${ceoAgentId}/keys`);
    expect(JSON.stringify(listed.body.items)).not.toContain(token);
    expect(JSON.stringify(await app.store.findApiToken(token))).toBe(undefined);
    expect((await app.request("GET", `/api/companies/${id}`, { token })).status).toBe(200);
    const revoked = await app.request("DELETE", `/api/agents/${ceoAgentId}/keys/${minted.body.id}`);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect((await app.request("GET", `/api/companies/${id}`, { token })).status).toBe(401);
    expect((await app.request("DELETE", `/api/agents/${ceoAgentId}/keys/key_missing`)).status).toBe(404);
  });
});

describe("wakes and runs", () => {
  it("answers a wake at once with its run id; the run goes on in the background and its events are readable", async () => {
    const { id, ceoAgentId } = await apiCompany(app);
    const woken = await app.request("POST", `/api/agents/${ceoAgentId}/wake`, {
      json: { trigger: "start_team_building", seed: 7 },
    });
    expect(woken.status).toBe(202);
    expect(woken.body).toMatchObject({
      runId: expect.stringMatching(/^run_/),
      profile: "semantic",
      mode: "team-building",
      trigger: "start_team_building",
    });
    // SQLite: run by this process, no queue involved.
    expect(woken.body).toMatchObject({
      via: "in-process",
      wakeId: null,
      coalesced: false,
      status: "started",
    });
    const run = await untilRunEnds(woken.body.runId);
    expect(run).toMatchObject({ status: "done", companyId: id, agentId: ceoAgentId });
    const events = await app.request("GET", `/api/runs/${run.id}/events`);
    expect(events.body.run.status).toBe("done");
    expect(events.body.events.at(-1).data).toMatchObject({ type: "terminal", status: "done" });
    const page = await app.request(
      "GET",
      `/api/runs/${run.id}/events?after=${events.body.events[1].id}&limit=2`,
    );
    expect(page.body.events.map((e: { seq: number }) => e.seq)).toEqual([2, 3]);
    const agents = (await app.request("GET", `/api/companies/${id}/agents`)).body.items as Array<{
      via: string;
      isCeo: boolean;
    }>;
    expect(agents.filter((a) => !a.isCeo).every((a) => a.via === "tool")).toBe(true);
    expect((await app.request("GET", `/api/companies/${id}`)).body.ceoMode).toBe("awaiting-approval");
  });

  it("refuses, before writing anything, a wake the company rules forbid or a legacy wake with no API to call", async () => {
    const { id, ceoAgentId } = await apiCompany(app);
    const cto = (await app.request("POST", `/api/companies/${id}/agents`, { json: HIRE })).body;
    const before = await app.store.counts();
    const member = await app.request("POST", `/api/agents/${cto.id}/wake`);
    expect(member.status).toBe(400);
    expect(member.body.error.message).toMatch(/strategy is not approved/);
    const legacy = await app.request("POST", `/api/agents/${ceoAgentId}/wake`, {
      json: { profile: "legacy" },
    });
    expect(legacy.status).toBe(400);
    expect(legacy.body.error.message).toMatch(/legacy profile needs a running Cadre API/);
    expect(await app.store.counts()).toEqual(before);
  });
});

describe("meta", () => {
  it("answers /healthz without a token", async () => {
    expect(await app.request("GET", "/healthz", { token: null })).toMatchObject({
      status: 200,
      body: { ok: true },
    });
  });

  it("serves an OpenAPI document generated from the route table, with the tools' own schemas for the legacy bodies", async () => {
    const doc = (await app.request("GET", "/api/openapi.json", { token: null })).body;
    expect(doc.openapi).toBe("3.1.0");
    for (const r of ROUTES) expect(doc.paths[r.path]?.[r.method], `${r.method} ${r.path}`).toBeDefined();
    const hire = doc.paths["/api/companies/{id}/agents"].post.requestBody.content["application/json"].schema;
    const tool = JSON.parse(JSON.stringify(hireAgentSchema));
    expect(hire.properties).toEqual(tool.properties);
    expect(hire.required.sort()).toEqual([...tool.required].sort());
    expect(hire.additionalProperties).toBe(false);
    const file =
      doc.paths["/api/companies/{id}/approvals"].post.requestBody.content["application/json"].schema;
    expect(file.properties).toEqual(JSON.parse(JSON.stringify(fileApprovalSchema)).properties);
    expect(doc.paths["/api/approvals/{id}/approve"].post.description).toMatch(/operator/);
  });

  it("documents every answer with the schema of the view the handler returns, and cites no internal rule id", async () => {
    const doc = (await app.request("GET", "/api/openapi.json", { token: null })).body;
    for (const r of ROUTES) {
      const op = doc.paths[r.path][r.method];
      const ok = op.responses[String(r.response.status)];
      expect(ok, `${r.method} ${r.path}`).toBeDefined();
      if (r.produces === "sse") expect(ok.content["text/event-stream"]).toBeDefined();
      else if (r.produces === "file")
        expect(ok.content["application/octet-stream"].schema).toEqual({ type: "string", format: "binary" });
      else
        expect(ok.content["application/json"].schema, `${r.method} ${r.path}`).toEqual(
          JSON.parse(JSON.stringify(r.response.schema)),
        );
      for (const [status, answer] of Object.entries(op.responses as Record<string, { content: unknown }>))
        if (status !== String(r.response.status))
          expect(answer.content).toEqual({
            "application/json": { schema: { $ref: "#/components/schemas/Error" } },
          });
    }
    const agent = doc.paths["/api/agents/{id}"].get.responses["200"].content["application/json"].schema;
    expect(Object.keys(agent.properties)).toEqual([
      "id",
      "companyId",
      "name",
      "role",
      "description",
      "department",
      "connectorId",
      "model",
      "reportsTo",
      "isCeo",
      "status",
      "via",
      "createdAt",
    ]);
    expect(doc.components.schemas.Error.properties.error.required).toEqual(["code", "message"]);
    // Rule ids (C4-n, MC-n, OP-n) are for tests and comments; an API user reads none.
    expect(JSON.stringify(doc)).not.toMatch(/\b(C4|MC|OP)-\d+/);
  });

  it("answers unknown routes with a JSON 404", async () => {
    const r = await app.request("GET", "/api/nope", { token: OPERATOR_TOKEN });
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe("not_found");
  });
});
