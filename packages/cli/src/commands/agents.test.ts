// `cadre agents set-model` (MC-13) in process: the same domain function as PATCH /api/agents/:id/model.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const SONNET = "claude-sonnet-4-5-20250929";
const HAIKU = "claude-haiku-4-5-20251001";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-agents-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A company (offline CEO) plus an agent on an anthropic connector with two models. */
async function seed(): Promise<{ ceoId: string; writerId: string }> {
  const created = await runCli(["company", "create", "--name", "Acme", "--data", dir, "--json"]);
  expect(created.code).toBe(0);
  const store = await openStore({ path: join(dir, "cadre.db") });
  try {
    const [ceo] = await store.listAgents(created.json().id as string);
    await store.insertConnector({
      companyId: ceo!.companyId,
      id: "anthropic",
      kind: "anthropic",
      label: "Anthropic",
      enabledModels: [SONNET, HAIKU],
      config: {},
    });
    await store.insertAgent({
      id: "agt_writer",
      companyId: ceo!.companyId,
      name: "Writer",
      role: "Writer",
      description: "Writes.",
      department: null,
      connectorId: "anthropic",
      model: SONNET,
      reportsTo: ceo!.id,
      isCeo: false,
      status: "active",
      via: "system",
    });
    return { ceoId: ceo!.id, writerId: "agt_writer" };
  } finally {
    await store.close();
  }
}

async function modelOf(id: string): Promise<string | undefined> {
  const store = await openStore({ path: join(dir, "cadre.db") });
  try {
    return (await store.getAgent(id))?.model;
  } finally {
    await store.close();
  }
}

describe("cadre agents set-model (MC-13)", () => {
  it("MC-13 switches to a model enabled on the agent's connector, and says what changed", async () => {
    const { writerId } = await seed();
    const r = await runCli(["agents", "set-model", writerId, HAIKU, "--data", dir]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(
      `Writer (agt_writer): ${SONNET} → ${HAIKU} on connector anthropic; its next wake starts on it\n`,
    );
    expect(await modelOf(writerId)).toBe(HAIKU);
    const again = await runCli(["agents", "set-model", writerId, HAIKU, "--data", dir, "--json"]);
    expect(again.json()).toMatchObject({ changed: false, from: HAIKU, live: "no live session" });
  });

  it("MC-13 a model not enabled on the connector: exit 2, the allowed ones named, nothing written", async () => {
    const { writerId, ceoId } = await seed();
    const r = await runCli(["agents", "set-model", writerId, "claude-opus-4-7", "--data", dir]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`allowed on connector "anthropic": ${SONNET}, ${HAIKU}`);
    expect(await modelOf(writerId)).toBe(SONNET);
    const ceo = await runCli(["agents", "set-model", ceoId, HAIKU, "--data", dir]);
    expect(ceo.code).toBe(2);
    expect(ceo.err).toContain('allowed on connector "offline": offline-scripted-1');
  });

  it("bad usage: both arguments are required", async () => {
    const r = await runCli(["agents", "set-model", "agt_x", "--data", dir]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/AGENT_ID and MODEL are required/);
    expect((await runCli(["agents", "nope"])).err).toMatch(/use list, set-model, terminate or keys/);
  });
});

describe("agents by name, wherever an agent id is taken", () => {
  it("set-model, wake, sessions and budgets take a name as agents list shows it; an unknown one is refused naming the agents", async () => {
    const { ceoId, writerId } = await seed();
    const moved = await runCli(["agents", "set-model", "writer", HAIKU, "--data", dir]);
    expect(moved.code, moved.err).toBe(0);
    expect(await modelOf(writerId)).toBe(HAIKU);
    const woken = await runCli(["wake", "CEO", "--json", "--data", dir]);
    expect(woken.code, woken.err).toBe(0);
    expect(woken.json()).toMatchObject({ agentId: ceoId, terminal: "done" });
    const session = await runCli(["sessions", "show", "CEO", "--json", "--data", dir]);
    expect(session.code, session.err).toBe(0);
    expect(session.json()).toMatchObject({ agentId: ceoId });
    const budget = await runCli(["budgets", "show", "--agent", "Writer", "--json", "--data", dir]);
    expect(budget.code, budget.err).toBe(0);
    const unknown = await runCli(["wake", "Nobody", "--data", dir]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(
      /"Nobody" is not an agent id or the name of an active agent \(they are: CEO, Writer[,)]/,
    );
  });
});
