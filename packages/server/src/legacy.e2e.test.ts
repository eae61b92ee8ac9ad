// The legacy profile end to end, over a real port: the CEO's bash tool really runs `node -e` fetch
// POSTs in a subprocess, against this server, with the run's own token; the hires and the strategy
// land through the legacy routes with `via: "http"`, exactly as the old design did it.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "./server.js";

let dir: string;
let store: Store;
let server: RunningServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-legacy-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  server = await startServer({ store, port: 0, dataDir: dir, env: {}, log: () => {} });
});
afterEach(async () => {
  await server.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${server.operatorToken}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: await response.json() };
}

async function untilRunEnds(runId: string) {
  for (;;) {
    const r = await api("GET", `/api/runs/${runId}`);
    if (r.body.status !== "running") return r.body;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("legacy profile over a real port", () => {
  it("listens on loopback and answers /healthz", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });

  it("the CEO hires 3–5 agents and files its strategy by running node -e fetch POSTs against this server", async () => {
    const company = (
      await api("POST", "/api/companies", {
        name: "Northwind Robotics",
        goal: "Build autonomous warehouse robots and sell them to logistics companies.",
        profile: "legacy",
      })
    ).body;
    expect(company.settings.profile).toBe("legacy");
    const woken = await api("POST", `/api/agents/${company.ceoAgentId}/wake`, {
      trigger: "start_team_building",
      seed: 11,
    });
    expect(woken.status).toBe(202);
    expect(woken.body.profile).toBe("legacy");
    expect(woken.body.cue).toContain(`POST ${server.url}/api/companies/${company.id}/agents`);
    expect(woken.body.cueTokens).toBeGreaterThan(300);
    const run = await untilRunEnds(woken.body.runId);
    expect(run).toMatchObject({ status: "done", profile: "legacy", error: null });

    const hires = (await api("GET", `/api/companies/${company.id}/agents`)).body.items.filter(
      (a: { isCeo: boolean }) => !a.isCeo,
    );
    expect(hires.length).toBeGreaterThanOrEqual(3);
    expect(hires.length).toBeLessThanOrEqual(5);
    expect(
      hires.every(
        (a: { via: string; reportsTo: string }) => a.via === "http" && a.reportsTo === company.ceoAgentId,
      ),
    ).toBe(true);
    const approvals = (await api("GET", `/api/companies/${company.id}/approvals`)).body.items;
    expect(
      approvals.map((a: { type: string; status: string; via: string }) => [a.type, a.status, a.via]),
    ).toEqual([["approve_ceo_strategy", "pending", "http"]]);
    expect((await api("GET", `/api/companies/${company.id}`)).body.ceoMode).toBe("awaiting-approval");

    // The hires were made with the run's own token: the activity names the run, and the token is revoked now.
    const hired = await store.listActivity(company.id, { type: "agent.hired" });
    expect(hired.map((h) => [h.runId, (h.data as { hiredBy: string }).hiredBy])).toEqual(
      hires.map(() => [run.id, company.ceoAgentId]),
    );
    const keys = (await api("GET", `/api/agents/${company.ceoAgentId}/keys`)).body.items;
    expect(keys).toEqual([expect.objectContaining({ runId: run.id, revokedAt: expect.any(String) })]);

    // What the model did: bash calls, each a node -e fetch POST; no company tool was offered.
    const events = (await api("GET", `/api/runs/${run.id}/events`)).body.events as Array<{
      type: string;
      data: any;
    }>;
    const calls = events.filter((e) => e.type === "tool_use").map((e) => e.data);
    expect(calls.every((c) => c.name === "bash" && c.input.command.startsWith("node -e 'fetch("))).toBe(true);
    expect(calls).toHaveLength(hires.length + 1);
    const results = events
      .filter((e) => e.type === "tool_result")
      .map((e) => e.data.content[0].text as string);
    expect(results.every((t) => /^201 \{/.test(t) && t.endsWith("[exit code 0]"))).toBe(true);
    // Each run works in its own folder under the data directory.
    expect(await readdir(join(dir, "runs"))).toEqual([run.id]);
  });

  it("a legacy wake the server refuses leaves a readable error in the transcript, not a crash", async () => {
    const company = (
      await api("POST", "/api/companies", { name: "Tiny Co", goal: "Sell software.", profile: "legacy" })
    ).body;
    // Every hire will be refused: the team is already at its maximum size (the CEO counts).
    const settings = (await store.getCompany(company.id))!.settings;
    await store.updateCompanySettings(company.id, { ...settings, maxTeamSize: 1 });
    const woken = await api("POST", `/api/agents/${company.ceoAgentId}/wake`, {
      seed: 2,
      trigger: "start_team_building",
    });
    const run = await untilRunEnds(woken.body.runId);
    expect(run.status).toBe("done");
    const events = (await api("GET", `/api/runs/${run.id}/events`)).body.events as Array<{
      type: string;
      data: any;
    }>;
    const results = events.filter((e) => e.type === "tool_result").map((e) => e.data);
    expect(results).toHaveLength(1);
    expect(results[0].isError).toBe(true);
    expect(results[0].content[0].text).toMatch(/^400 \{"error":\{"code":"invalid_input".*maximum team size/);
    const final = events.filter((e) => e.type === "text_end").at(-1)!.data.text as string;
    expect(final).toMatch(/cannot hire right now/);
    expect((await api("GET", `/api/companies/${company.id}/agents`)).body.items).toHaveLength(1);
  });
});
