// `--faults` on demo/wake and `cadre sessions inspect`, in process (the same main() the bin runs).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "@cadre/core";
import { FAULT_NAMES } from "@cadre/core/testing";
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

const BASE_KEYS = ["approvals", "ceo", "ceoMode", "companyId", "hires", "initialCue", "usage"];

describe("cadre demo --faults (failure rehearsal, offline connector)", () => {
  it("overflow-after-tool: the summary carries terminal/replays/rollovers; one hire, failed, exit 1", async () => {
    const r = await cli("demo", "--data", dir, "--faults", "overflow-after-tool", "--seed", "7", "--json");
    expect(r.code).toBe(1);
    const summary = r.json();
    expect(Object.keys(summary).sort()).toEqual([...BASE_KEYS, "replays", "rollovers", "terminal"].sort());
    expect(summary).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
    expect(summary["hires"]).toHaveLength(1);
    expect(r.err).toMatch(
      /✗ no replay: MC-10: context overflow, not replayed: the turn had tool side effects/,
    );
  });

  it("MC-11 prompt-timeout: the stalled call is aborted, the run fails without a replay; sessions inspect shows the handoff latched for the next send", async () => {
    const r = await cli("demo", "--data", dir, "--faults", "prompt-timeout", "--seed", "7", "--json");
    expect(r.code).toBe(1);
    expect(r.json()).toMatchObject({ terminal: "failed", replays: 0, rollovers: 0 });
    expect(r.err).toMatch(
      /✗ no replay: MC-11: Pi prompt timeout: the one timeout that may hand off; no replay: the next send starts from a handoff/,
    );
    const runId = /sessions inspect (run_\w+)/.exec(r.err)?.[1] as string;
    const inspect = await cli("sessions", "inspect", runId, "--data", dir, "--json");
    expect(inspect.json()).toMatchObject({
      latch: { needsRollover: true, reason: expect.stringMatching(/^MC-11: Pi prompt timeout/) },
      compressions: [],
      terminal: { status: "failed" },
    });
  });

  it("compact-empty-summary: one rollover, the run ends done; sessions inspect shows the classification", async () => {
    const r = await cli("demo", "--data", dir, "--faults", "compact-empty-summary", "--seed", "7", "--json");
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({
      terminal: "done",
      replays: 0,
      rollovers: 1,
      ceoMode: "awaiting-approval",
    });
    expect(r.err).toMatch(
      /⇢ rollover: send: needsRollover latched \(pi\/silent: compaction produced an empty summary\)/,
    );
    const runId = /sessions inspect (run_\w+)/.exec(r.err)?.[1] as string;
    const inspect = await cli("sessions", "inspect", runId, "--data", dir, "--json");
    expect(inspect.code).toBe(0);
    expect(inspect.json()).toMatchObject({
      runId,
      recorded: true,
      harness: "pi",
      contextWindow: 128_000,
      threshold: 0.9,
      thresholdSource: "default",
      reserveTokens: 12_800,
      latch: { needsRollover: false, reason: null },
      openClaims: [],
      lastCompaction: { result: "deterministic", reason: "pi/silent: compaction produced an empty summary" },
      replays: 0,
      rollovers: [{ reason: expect.stringMatching(/needsRollover latched/) }],
      terminal: { status: "done" },
    });
    const text = await cli("sessions", "inspect", runId, "--data", dir);
    expect(text.out).toMatch(
      /threshold {2}90\.0% \(default\); Pi reserveTokens 12800 \(frozen at start\), compacts at 115200 tokens/,
    );
    expect(text.out).toMatch(/latch {6}needsRollover clear — live session only/);
    expect(text.out).toMatch(/last: deterministic — pi\/silent: compaction produced an empty summary/);
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
          reason: "MC-12: byte budget broken by strippable oversized images",
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
      "⇲ compression at next-send: strip-images — MC-12: byte budget broken by strippable oversized images (request 70000 of 51200 bytes; 1 image(s) stripped, 61000 bytes freed)",
    );
    const json = await cli("sessions", "inspect", "run_c", "--data", dir, "--json");
    expect(json.json()["compressions"]).toEqual([
      {
        trigger: "next-send",
        action: "strip-images",
        reason: "MC-12: byte budget broken by strippable oversized images",
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
  });
});
