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

  it("tasks, schedules and run work through --server as they do locally (same lines, same --json)", async () => {
    // The server with a data directory, as `cadre serve` runs it; its own loop off, so that the
    // due work is what `run --server` asks for.
    const dataDir = await mkdtemp(join(tmpdir(), "cadre-http-work-"));
    const kept = await openStore({ path: join(dataDir, "cadre.db") });
    const server = await startServer({ store: kept, port: 0, dataDir, env: {}, log: () => {} });
    const env = { CADRE_TOKEN: server.operatorToken };
    const on = (...argv: string[]) => cli(env, ...argv, "--server", server.url);
    try {
      const made = await on("company", "create", "--name", "Work", "--json");
      expect(made.code, made.err).toBe(0);
      const ceo = (JSON.parse(made.out) as { ceoAgentId: string }).ceoAgentId;
      const woke = await on("wake", ceo, "--seed", "3");
      expect(woke.code, woke.err).toBe(0);
      const early = await on("tasks", "create", "--title", "Too early");
      expect(early.code).toBe(2);
      expect(early.err).toMatch(/\(400\): create_task was not run, nothing was written/);
      const [strategy] = JSON.parse((await on("approvals", "list", "--json")).out) as { id: string }[];
      expect((await on("approvals", "approve", strategy!.id)).code).toBe(0);

      const created = await on("tasks", "create", "--title", "Write the brief", "--json");
      expect(created.code, created.err).toBe(0);
      const task = JSON.parse(created.out) as { taskId: string };
      expect(task).toEqual({
        taskId: expect.stringMatching(/^task_/),
        title: "Write the brief",
        status: "todo",
        assignee: null,
        wakes: [],
      });
      const assigned = await on("tasks", "assign", task.taskId, "CEO");
      expect(assigned.out).toBe(
        `${task.taskId} "Write the brief": todo, assigned to CEO; wakes CEO (cadre run)\n`,
      );
      expect((await on("tasks", "comment", task.taskId, "Short, please.")).code).toBe(0);
      const closed = await on("tasks", "close", task.taskId, "--cancel");
      expect(closed.out).toBe(`${task.taskId} "Write the brief": cancelled, assigned to CEO\n`);
      const listed = await on("tasks", "list", "--status", "cancelled,done", "--assignee", "CEO");
      // A header, then aligned columns: id, status, assignee, creator, deliverable, blockers, title.
      expect(listed.out).toMatch(
        new RegExp(
          `^ID +STATUS +ASSIGNEE +CREATOR +DELIVERABLE +BLOCKED BY +TITLE\n${task.taskId} +cancelled +CEO +operator +- +- +"Write the brief"\n$`,
        ),
      );
      const shown = await on("tasks", "show", task.taskId);
      expect(shown.out).toContain("comment by operator");
      expect(shown.out).toContain("Short, please.");
      const missing = await on("tasks", "show", "task_missing");
      expect(missing.code).toBe(2);
      expect(missing.err).toMatch(/404.*task task_missing not found/);

      const scheduled = await on("schedules", "set", "CEO", "--every", "1h", "--start", "now");
      expect(scheduled.out).toMatch(/^CEO: every 1h, catch-up one; next tick \S+\n$/);
      const badCatchUp = await on("schedules", "set", "CEO", "--every", "1h", "--catch-up", "all");
      expect(badCatchUp.code).toBe(2);
      expect(badCatchUp.err).toMatch(/--catch-up must be one of skip, one \(got "all"\)/);

      const run = await on("run", "--until-idle", "--json", "--seed", "5");
      expect(run.code, run.err).toBe(0);
      const report = JSON.parse(run.out) as {
        wakes: { agent: string; trigger: string; terminal: string; tasks: string[] }[];
        ticks: { outcome: string }[];
        idle: boolean;
        runs: number;
      };
      expect(report.wakes[0]).toMatchObject({ agent: "CEO", trigger: "approval_decided", terminal: "done" });
      expect(report.wakes.at(-1)).toMatchObject({ agent: "CEO", trigger: "task_done" });
      expect(report).toMatchObject({
        idle: true,
        runs: report.wakes.length,
        ticks: [{ outcome: "skipped" }],
      });
      // The human lines went to stderr (--json), each run from its start to its end.
      expect(run.err).toMatch(/▶ run run_\S+ — CEO, trigger approval_decided, mode operating/);
      expect(run.err.match(/■ run run_\S+ — done/g)).toHaveLength(report.wakes.length);
      const tasks = JSON.parse((await on("tasks", "list", "--json")).out) as { status: string }[];
      expect(tasks.filter((t) => t.status === "done").length).toBe(report.wakes.length - 2);
      const idle = await on("run");
      expect(idle.out).toBe("\n0 run(s); 0 schedule tick(s) skipped; nothing is due\n");

      const schedules = JSON.parse((await on("schedules", "list", "--json")).out) as { agentId: string }[];
      expect(schedules.map((s) => s.agentId)).toEqual([ceo]);
      expect((await on("schedules", "remove", "CEO")).out).toBe("CEO: schedule removed\n");
      // An agent's key reads the company's tasks but runs no due work (operator only).
      const key = (await (
        await fetch(`${server.url}/api/agents/${ceo}/keys`, {
          method: "POST",
          headers: { authorization: `Bearer ${server.operatorToken}` },
        })
      ).json()) as { token: string };
      const byAgent = await cli({ CADRE_TOKEN: key.token }, "tasks", "list", "--server", server.url);
      expect(byAgent.code).toBe(0);
      const refused = await cli({ CADRE_TOKEN: key.token }, "run", "--server", server.url);
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/403/);
    } finally {
      await server.close();
      await kept.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
