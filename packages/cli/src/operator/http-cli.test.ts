// The CLI's --server mode (the operator port's HTTP adapter): its usage errors, and the API's
// refusals mapped to exit codes.
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "@cadre/server";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIO } from "../io.js";
import { main } from "../main.js";

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

async function cli(env: Record<string, string>, ...argv: string[]) {
  let out = "";
  let err = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env,
    stdin: (async function* () {})(),
  };
  return { code: await main(argv, io), out, err };
}

/** A loopback port nothing listens on (it was free a moment ago). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

describe("--server", () => {
  it("needs a token and an http URL, has no --data, and names the commands it supports", async () => {
    expect((await cli({}, "agents", "list", "--server", server.url)).err).toMatch(/needs a token/);
    expect((await cli({ CADRE_TOKEN: "x" }, "agents", "list", "--server", "ftp://host")).code).toBe(2);
    expect((await cli({ CADRE_TOKEN: "x" }, "agents", "list", "--server")).code).toBe(2);
    expect(
      (
        await cli(
          { CADRE_TOKEN: server.operatorToken },
          "agents",
          "list",
          "--server",
          server.url,
          "--data",
          "/tmp/x",
        )
      ).err,
    ).toMatch(/--data has no meaning/);
    const demo = await cli({ CADRE_TOKEN: server.operatorToken }, "demo", "--server", server.url);
    expect(demo.code).toBe(2);
    expect(demo.err).toMatch(
      /does not work with --server; these do: company, agents, connectors, approvals, wake, sessions, usage, budgets, tasks, schedules, run/,
    );
  });

  it("MC-13 agents set-model goes through PATCH /api/agents/:id/model: its refusal is exit 2 naming the allowed models", async () => {
    const a = (await (
      await fetch(`${server.url}/api/companies`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.operatorToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "M" }),
      })
    ).json()) as { ceoAgentId: string };
    const refused = await cli(
      { CADRE_TOKEN: server.operatorToken },
      "agents",
      "set-model",
      a.ceoAgentId,
      "claude-haiku-4-5-20251001",
      "--server",
      server.url,
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('allowed on connector "offline": offline-scripted-1');
    const same = await cli(
      { CADRE_TOKEN: server.operatorToken },
      "agents",
      "set-model",
      a.ceoAgentId,
      "offline-scripted-1",
      "--server",
      server.url,
    );
    expect(same.code).toBe(0);
    expect(same.out).toMatch(/already runs offline-scripted-1; nothing changed/);
  });

  it("maps the API's refusals to exit 2 with its message, and an unreachable server to exit 2 with one line", async () => {
    const bad = await cli(
      { CADRE_TOKEN: "cadre_agt_nope-nope-nope-nope" },
      "company",
      "show",
      "--server",
      server.url,
    );
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/\(401\): the token is not valid: it is unknown or was revoked\n$/);
    const none = await cli({ CADRE_TOKEN: server.operatorToken }, "company", "show", "--server", server.url);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/no company on/);
    const missing = await cli(
      { CADRE_TOKEN: server.operatorToken },
      "approvals",
      "approve",
      "apr_missing",
      "--server",
      server.url,
    );
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/404.*not found/);
    // Nothing was done: the --server given does not answer, a bad input (exit 2), said in one line.
    const closed = await closedPort();
    const down = await cli({ CADRE_TOKEN: "x" }, "agents", "list", "--server", `http://127.0.0.1:${closed}`);
    expect(down.code).toBe(2);
    expect(down.err).toBe(
      `cadre agents: the Cadre API at http://127.0.0.1:${closed} did not answer (connect ECONNREFUSED 127.0.0.1:${closed}); is \`cadre serve\` running there?\n`,
    );
  });

  it("an agent token sees only its own company and cannot decide approvals", async () => {
    const create = async (name: string) =>
      (
        await fetch(`${server.url}/api/companies`, {
          method: "POST",
          headers: { authorization: `Bearer ${server.operatorToken}`, "content-type": "application/json" },
          body: JSON.stringify({ name }),
        })
      ).json() as Promise<{ id: string; ceoAgentId: string }>;
    const a = await create("A");
    await create("B");
    const key = (await (
      await fetch(`${server.url}/api/agents/${a.ceoAgentId}/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.operatorToken}` },
      })
    ).json()) as { token: string };
    const show = await cli({ CADRE_TOKEN: key.token }, "company", "show", "--server", server.url, "--json");
    expect(show.code).toBe(0);
    expect(JSON.parse(show.out).company.id).toBe(a.id);
    const decide = await cli(
      { CADRE_TOKEN: key.token },
      "approvals",
      "approve",
      "apr_any",
      "--server",
      server.url,
    );
    expect(decide.code).toBe(2);
    expect(decide.err).toMatch(/403/);
  });

  it("budgets show and set go through GET/PUT /api/companies/:id/budget and /api/agents/:id/budget", async () => {
    const env = { CADRE_TOKEN: server.operatorToken };
    const a = (await (
      await fetch(`${server.url}/api/companies`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.operatorToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "B" }),
      })
    ).json()) as { id: string; ceoAgentId: string };
    const shown = await cli(env, "budgets", "show", "--server", server.url, "--json");
    expect(shown.code, shown.err).toBe(0);
    expect(JSON.parse(shown.out)).toMatchObject({
      budget: { scope: "company", companyId: a.id, limitUsd: 10 },
    });
    const set = await cli(env, "budgets", "set", "--tokens", "1500", "--server", server.url);
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain(`company ${a.id}: $0.00 of $10.00, 0 of 1500 tokens`);
    expect((await store.getBudget(a.id, null))?.limitTokens).toBe(1500);
    const agentSet = await cli(
      env,
      "budgets",
      "set",
      "--agent",
      a.ceoAgentId,
      "--usd",
      "1",
      "--server",
      server.url,
      "--json",
    );
    expect(agentSet.code, agentSet.err).toBe(0);
    expect(JSON.parse(agentSet.out).budget).toMatchObject({
      scope: "agent",
      agentId: a.ceoAgentId,
      limitUsd: 1,
    });
    const both = await cli(env, "budgets", "show", "--company", a.id, "--server", server.url);
    expect(both.out).toContain(`agent ${a.ceoAgentId}: $0.00 of $1.00`);
    const bad = await cli(env, "budgets", "set", "--none", "--usd", "3", "--server", server.url);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/400.*--none removes both limits/);
    const key = (await (
      await fetch(`${server.url}/api/agents/${a.ceoAgentId}/keys`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.operatorToken}` },
      })
    ).json()) as { token: string };
    const refused = await cli(
      { CADRE_TOKEN: key.token },
      "budgets",
      "set",
      "--usd",
      "99",
      "--company",
      a.id,
      "--server",
      server.url,
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/403/);
    expect((await store.getBudget(a.id, null))?.limitUsd).toBe(10);
  });

  it("sessions show and reset go through GET /api/agents/:id/session and POST …/session/reset (operator only)", async () => {
    // A server with a data directory: a Pi session's file lives there, so the session is kept.
    const dataDir = await mkdtemp(join(tmpdir(), "cadre-http-sessions-"));
    const kept = await openStore({ path: join(dataDir, "cadre.db") });
    const server = await startServer({ store: kept, port: 0, dataDir, env: {}, log: () => {} });
    try {
      const env = { CADRE_TOKEN: server.operatorToken };
      const a = (await (
        await fetch(`${server.url}/api/companies`, {
          method: "POST",
          headers: { authorization: `Bearer ${server.operatorToken}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "S" }),
        })
      ).json()) as { ceoAgentId: string };
      const none = await cli(env, "sessions", "show", a.ceoAgentId, "--server", server.url);
      expect(none.out).toBe(
        "CEO (" + a.ceoAgentId + "): no session kept — the next wake starts a fresh one\n",
      );
      const wake = await cli(env, "wake", a.ceoAgentId, "--seed", "3", "--server", server.url, "--json");
      expect(wake.code, wake.err).toBe(0);
      const woke = JSON.parse(wake.out) as { session: { harness: string; id: string; resumed: boolean } };
      expect(woke.session).toMatchObject({ harness: "pi", resumed: false });
      expect(wake.err).toContain(`session: pi ${woke.session.id} — new`);
      const shown = await cli(env, "sessions", "show", a.ceoAgentId, "--server", server.url, "--json");
      expect(JSON.parse(shown.out)).toMatchObject({
        agentId: a.ceoAgentId,
        session: { harness: "pi", sessionId: woke.session.id, runningRunId: null },
      });
      const key = (await (
        await fetch(`${server.url}/api/agents/${a.ceoAgentId}/keys`, {
          method: "POST",
          headers: { authorization: `Bearer ${server.operatorToken}` },
        })
      ).json()) as { token: string };
      const refused = await cli(
        { CADRE_TOKEN: key.token },
        "sessions",
        "reset",
        a.ceoAgentId,
        "--server",
        server.url,
      );
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/403/);
      const reset = await cli(env, "sessions", "reset", a.ceoAgentId, "--server", server.url);
      expect(reset.code).toBe(0);
      expect(reset.out).toBe(
        `CEO: session ${woke.session.id} forgotten; the next wake starts a fresh session\n`,
      );
      expect((await kept.getAgentSession(a.ceoAgentId)) ?? null).toBeNull();
    } finally {
      await server.close();
      await kept.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
