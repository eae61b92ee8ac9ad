// `--faults` on demo/wake and `cadre sessions inspect`, in process (the same main() the bin runs).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany, loadCompanyState } from "@cadre/company";
import { type AgentEvent, OFFLINE_MODEL_ID, OFFLINE_SMALL_MODEL_ID } from "@cadre/core";
import { FAULT_NAMES } from "@cadre/core/offline";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIO } from "../io.js";
import { main } from "../main.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-faults-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function cli(...argv: string[]) {
  let out = "";
  let err = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env: ENV,
    stdin: (async function* () {})(),
  };
  const code = await main(argv, io);
  return {
    code,
    out,
    err,
    json: () => JSON.parse(out.trim().split("\n").at(-1) as string) as Record<string, unknown>,
  };
}

// SPEC §4's keys, and §5's session.
const BASE_KEYS = ["approvals", "ceo", "ceoMode", "companyId", "hires", "initialCue", "session", "usage"];

describe("cadre demo --faults (failure rehearsal, offline connector)", () => {
  it("overflow-after-tool: the summary carries terminal/replays/rollovers; one hire, failed, exit 1", async () => {
    const r = await cli("demo", "--data", dir, "--faults", "overflow-after-tool", "--seed", "7", "--json");
    expect(r.code).toBe(1);
    const summary = r.json();
    expect(Object.keys(summary).sort()).toEqual([...BASE_KEYS, "replays", "rollovers", "terminal"].sort());
    expect(summary).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
    expect(summary["hires"]).toHaveLength(1);
    expect(r.err).toMatch(/✗ no replay: context overflow, not replayed: the turn had tool side effects/);
  });

  it("MC-11 prompt-timeout: the stalled call is aborted, the run fails without a replay; sessions inspect shows the handoff latched for the next send", async () => {
    const r = await cli("demo", "--data", dir, "--faults", "prompt-timeout", "--seed", "7", "--json");
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
    expect(r.err).toMatch(
      /✗ no replay: Pi prompt timeout: the one timeout that may hand off; no replay: the next send starts from a handoff/,
    );
    const runId = /sessions inspect (run_\w+)/.exec(r.err)?.[1] as string;
    const inspect = await cli("sessions", "inspect", runId, "--data", dir, "--json");
    expect(inspect.json()).toMatchObject({
      latch: { needsRollover: true, reason: expect.stringMatching(/^Pi prompt timeout/) },
      compressions: [],
      terminal: { status: "failed" },
    });
  });

  it("compact-empty-summary: Pi's compaction at the end of the run gets an empty summary: done, the latch set; the next wake rolls over to a fresh session from the handoff; sessions inspect shows both", async () => {
    const r = await cli("demo", "--data", dir, "--faults", "compact-empty-summary", "--seed", "7", "--json");
    expect(r.code).toBe(0);
    const demo = r.json() as { session: { id: string }; ceo: { agentId: string } };
    expect(demo).toMatchObject({
      terminal: "done",
      replays: 0,
      rollovers: 0,
      ceoMode: "awaiting-approval",
      session: { harness: "pi", resumed: false, rolledOver: false },
    });
    const runId = /sessions inspect (run_\w+)/.exec(r.err)?.[1] as string;
    const inspect = await cli("sessions", "inspect", runId, "--data", dir, "--json");
    expect(inspect.code).toBe(0);
    expect(inspect.json()).toMatchObject({
      runId,
      recorded: true,
      harness: "pi",
      sessionId: demo.session.id,
      compactionOwner: "pi",
      contextWindow: 128_000,
      threshold: 0.9,
      thresholdSource: "default",
      reserveTokens: 12_800,
      latch: { needsRollover: true, reason: "pi/silent: compaction produced an empty summary" },
      openClaims: [],
      lastCompaction: { result: "deterministic", reason: "pi/silent: compaction produced an empty summary" },
      compactions: [{ reason: "threshold", ok: false, error: "the compaction returned an empty summary" }],
      replays: 0,
      rollovers: [],
      terminal: { status: "done" },
    });
    const text = await cli("sessions", "inspect", runId, "--data", dir);
    expect(text.out).toMatch(
      /threshold {2}90\.0% \(default\); Pi reserveTokens 12800 \(frozen at start\), compacts at 115200 tokens/,
    );
    expect(text.out).toMatch(/owner {6}Pi compacts natively \(reserveTokens 12800/);
    expect(text.out).toMatch(/latch {6}needsRollover SET: pi\/silent: compaction produced an empty summary/);
    const next = await cli("wake", demo.ceo.agentId, "--data", dir, "--json");
    const woke = next.json() as { runId: string; session: { id: string } };
    expect(woke.session).toMatchObject({ harness: "pi", resumed: false, rolledOver: true });
    expect(woke.session.id).not.toBe(demo.session.id);
    expect(next.err).toMatch(
      /⇢ rollover: idle direct send: needsRollover latched \(pi\/silent: compaction produced an empty summary\)/,
    );
    const after = await cli("sessions", "inspect", woke.runId, "--data", dir, "--json");
    expect(after.json()).toMatchObject({
      latch: { needsRollover: false },
      rollovers: [{ fromSession: demo.session.id, toSession: woke.session.id }],
    });
  });

  it("without --faults the summary keeps exactly the SPEC §4 keys", async () => {
    const r = await cli("demo", "--data", dir, "--seed", "3", "--json");
    expect(Object.keys(r.json()).sort()).toEqual(BASE_KEYS);
  });

  it.each([
    [["--faults", "bogus"], new RegExp(`unknown fault "bogus"; allowed: ${FAULT_NAMES.join(", ")}`)],
    [["--faults", "timeout,"], /unknown fault ""/],
    [
      ["--faults", "timeout", "--connector", "anthropic"],
      /--faults rehearses failures on the offline connector only/,
    ],
  ])("bad usage %j: exit 2, the reason on stderr, nothing created", async (args, message) => {
    const r = await cli("demo", "--data", dir, ...args);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.out).toBe("");
  });

  it("cadre wake --faults: the JSON line carries replays and rollovers", async () => {
    const first = (await cli("demo", "--data", dir, "--seed", "5", "--json")).json() as {
      ceo: { agentId: string };
    };
    const r = await cli("wake", first.ceo.agentId, "--data", dir, "--faults", "timeout", "--json");
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
    const bad = await cli("wake", first.ceo.agentId, "--data", dir, "--faults", "nope");
    expect(bad.code).toBe(2);
  });
});

describe("an agent's session across wakes (SPEC §5 session)", () => {
  it("demo, then approvals approve, then wake --json twice: the operating CEO's tool list starts one fresh session from the handoff, the wake after it resumes that Pi session; sessions inspect shows Pi as the compaction owner with its frozen reserveTokens", async () => {
    const demo = (await cli("demo", "--data", dir, "--seed", "7", "--json")).json() as {
      ceo: { agentId: string };
      approvals: Array<{ id: string }>;
      session: { harness: string; id: string; resumed: boolean; rolledOver: boolean };
    };
    expect(demo.session).toMatchObject({ harness: "pi", resumed: false, rolledOver: false });
    expect((await cli("approvals", "approve", demo.approvals[0]!.id, "--data", dir)).code).toBe(0);
    // The operating company offers the CEO the task tools: tools never change inside a session (MC-3).
    const first = (await cli("wake", demo.ceo.agentId, "--data", dir, "--json")).json() as {
      modeBefore: string;
      session: { harness: string; id: string; resumed: boolean; rolledOver: boolean };
    };
    expect(first).toMatchObject({ modeBefore: "operating", session: { resumed: false, rolledOver: true } });
    expect(first.session.id).not.toBe(demo.session.id);
    const wake = await cli("wake", demo.ceo.agentId, "--data", dir, "--json");
    expect(wake.code).toBe(0);
    const woke = wake.json() as { runId: string; modeBefore: string };
    const id = first.session.id;
    expect(woke).toMatchObject({
      modeBefore: "operating",
      session: { harness: "pi", id, resumed: true, rolledOver: false },
    });
    expect(wake.err).toContain(`session: pi ${id} — resumed`);
    const inspect = await cli("sessions", "inspect", woke.runId, "--data", dir, "--json");
    expect(inspect.json()).toMatchObject({
      harness: "pi",
      sessionId: id,
      session: [{ action: "resumed", harness: "pi", id }],
      compactionOwner: "pi",
      reserveTokens: 12_800,
    });
    const show = await cli("sessions", "show", demo.ceo.agentId, "--data", dir, "--json");
    expect(show.json()).toMatchObject({
      session: {
        harness: "pi",
        sessionId: id,
        reserveTokens: 12_800,
        runningRunId: null,
        previousSessionId: demo.session.id,
      },
    });
    expect((show.json() as { session: { sessionFile: string } }).session.sessionFile).toContain(
      join(dir, "agents", demo.ceo.agentId, "sessions"),
    );
  });

  it("sessions reset AGENT_ID: the next wake starts a fresh session; an unknown agent is named", async () => {
    const demo = (await cli("demo", "--data", dir, "--seed", "7", "--json")).json() as {
      ceo: { agentId: string };
      session: { id: string };
    };
    const reset = await cli("sessions", "reset", demo.ceo.agentId, "--data", dir);
    expect(reset.code).toBe(0);
    expect(reset.out).toContain(`session ${demo.session.id} forgotten; the next wake starts a fresh session`);
    const wake = (await cli("wake", demo.ceo.agentId, "--data", dir, "--json")).json() as {
      session: { id: string; resumed: boolean };
    };
    expect(wake.session.resumed).toBe(false);
    expect(wake.session.id).not.toBe(demo.session.id);
    const missing = await cli("sessions", "reset", "agt_nope", "--data", dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/"agt_nope" is not an agent id or the name of an active agent/);
  });

  it("MC-13 agents set-model between wakes to a smaller window with the history above 90% of it: the handoff first, visible in the next run and sessions inspect", async () => {
    const store = await openStore({ path: join(dir, "cadre.db") });
    let ceoId: string;
    try {
      const created = await createCompany(store, {
        name: "Northwind Robotics",
        goal: "Build autonomous warehouse robots.",
        connectors: [
          { id: "rehearsal", kind: "offline", enabledModels: [OFFLINE_MODEL_ID, OFFLINE_SMALL_MODEL_ID] },
        ],
        ceoConnectorId: "rehearsal",
      });
      ceoId = (await loadCompanyState(store, created.id)).ceo.id;
    } finally {
      await store.close();
    }
    // The compaction rehearsal makes the provider report the window 95% full: a long history.
    const demo = (
      await cli("demo", "--data", dir, "--faults", "compact-overloaded", "--seed", "7", "--json")
    ).json() as { session: { id: string } };
    const switched = await cli(
      "agents",
      "set-model",
      ceoId!,
      OFFLINE_SMALL_MODEL_ID,
      "--data",
      dir,
      "--json",
    );
    expect(switched.code).toBe(0);
    expect(switched.json()).toMatchObject({
      changed: true,
      session: {
        action: "handoff-then-switch",
        fromSession: demo.session.id,
        reason: expect.stringMatching(/^switch to offline-scripted-small-1: pi: overflow at \d+ tokens/),
      },
    });
    const wake = await cli("wake", ceoId!, "--data", dir, "--json");
    const woke = wake.json() as { runId: string; session: { id: string } };
    expect(woke.session).toMatchObject({ resumed: false, rolledOver: true });
    expect(wake.err).toMatch(/⇢ rollover: switch to offline-scripted-small-1/);
    const inspect = await cli("sessions", "inspect", woke.runId, "--data", dir, "--json");
    expect(inspect.json()).toMatchObject({
      model: OFFLINE_SMALL_MODEL_ID,
      contextWindow: 32_000,
      reserveTokens: 3_200,
      rollovers: [
        {
          reason: expect.stringMatching(/^switch to offline-scripted-small-1/),
          fromSession: demo.session.id,
          toSession: woke.session.id,
        },
      ],
    });
  });
});

describe("cadre sessions", () => {
  it("MC-12 shows each compression decision of a stored run, with its trigger, action, reason and sizes", async () => {
    const created = await cli("company", "create", "--name", "Acme", "--data", dir, "--json");
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const [ceo] = await store.listAgents(created.json()["id"] as string);
      await store.insertRun({
        id: "run_c",
        companyId: ceo!.companyId,
        agentId: ceo!.id,
        trigger: "routine",
        mode: "team-building",
        profile: "semantic",
        cue: "Go.",
      });
      const events: AgentEvent[] = [
        {
          type: "compression",
          trigger: "next-send",
          action: "strip-images",
          reason: "byte budget broken by strippable oversized images",
          bytes: 70_000,
          byteLimit: 51_200,
          strippedImages: 1,
          bytesFreed: 61_000,
        },
        { type: "terminal", status: "done" },
      ];
      await store.appendRunEvents(
        events.map((data, seq) => ({
          runId: "run_c",
          companyId: ceo!.companyId,
          seq,
          type: data.type,
          data,
        })),
      );
    } finally {
      await store.close();
    }
    const text = await cli("sessions", "inspect", "run_c", "--data", dir);
    expect(text.out).toContain(
      "⇲ compression at next-send: strip-images — byte budget broken by strippable oversized images (request 70000 of 51200 bytes; 1 image(s) stripped, 61000 bytes freed)",
    );
    const json = await cli("sessions", "inspect", "run_c", "--data", dir, "--json");
    expect(json.json()["compressions"]).toEqual([
      {
        trigger: "next-send",
        action: "strip-images",
        reason: "byte budget broken by strippable oversized images",
        bytes: 70_000,
        byteLimit: 51_200,
        strippedImages: 1,
        bytesFreed: 61_000,
      },
    ]);
  });

  it("usage errors exit 2; an unknown run is named", async () => {
    expect((await cli("company", "create", "--name", "Inspect Co", "--data", dir)).code).toBe(0);
    expect((await cli("sessions", "--data", dir)).code).toBe(2);
    expect((await cli("sessions", "inspect", "--data", dir)).code).toBe(2);
    const missing = await cli("sessions", "inspect", "run_nope", "--data", dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/run run_nope not found/);
    expect((await cli("sessions", "--help")).out).toMatch(/Usage: cadre sessions inspect RUN_ID/);
    expect((await cli("sessions", "--help")).out).toMatch(/cadre sessions reset AGENT_ID/);
    expect((await cli("sessions", "show", "--data", dir)).code).toBe(2);
  });
});
