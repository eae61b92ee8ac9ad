// Cassettes through the runner: a suite recorded with its model answers, then replayed with a model
// that must not be called, sample by sample; a missing answer stops the run, naming what is missing.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlineCeoScript } from "@cadre/company";
import type { StreamFn } from "@cadre/core";
import { createScriptedStreamFn, type Script } from "@cadre/core/offline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import { loadScenarios } from "../scenario/load.js";
import type { Trace } from "../trace/types.js";
import { PROFILES, type ProfileDriver, semanticProfile } from "./profiles.js";
import { runSuite } from "./run-suite.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-cassettes-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const NO_KEYS = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };
const unreachable: Script = () => {
  throw new Error("the offline model was called during a replay");
};
/** The same profile, with an offline model that fails the sample if anything asks it. */
const mute = (profile: ProfileDriver): ProfileDriver => ({ ...profile, offlineScript: unreachable });

const behaviour = (traces: Map<string, Trace[]>) =>
  [...traces.values()].flat().map((t) => ({
    id: t.scenarioId,
    sample: t.sample,
    terminal: t.terminal,
    calls: t.toolCalls,
    trajectory: t.trajectory,
    hires: t.hires,
    final: t.finalState,
    prompt: t.systemPrompt,
    tools: t.tools,
    usage: t.usage,
  }));

async function suite(
  profile: ProfileDriver,
  only: string[],
  mode: "record" | "replay",
  cassettes: string,
  extra: { samples?: number; ceoKind?: "anthropic"; vendor?: StreamFn; env?: NodeJS.ProcessEnv } = {},
) {
  return runSuite({
    scenarios: await loadScenarios(undefined, only),
    samples: extra.samples ?? 2,
    seed: 11,
    concurrency: 2,
    profile,
    env: extra.env ?? NO_KEYS,
    cassettes: { mode, dir: cassettes },
    ...(extra.ceoKind ? { ceoKind: extra.ceoKind } : {}),
    ...(extra.vendor ? { vendor: extra.vendor } : {}),
  });
}

describe("cassettes in the runner", () => {
  it("semantic, offline: the replay reproduces every sample's trajectory without calling the model, and says so", async () => {
    const cassettes = join(dir, "semantic");
    const only = ["empty-single-connector", "partial-team", "rejected-strategy-with-note"];
    const recorded = await suite(semanticProfile, only, "record", cassettes);
    expect(
      [...recorded.traces.values()].flat().every((t) => t.source === "offline" && t.terminal === "done"),
    ).toBe(true);
    expect((await readdir(cassettes)).sort()).toEqual([...only].sort());
    const replayed = await suite(mute(semanticProfile), only, "replay", cassettes);
    expect(behaviour(replayed.traces)).toEqual(behaviour(recorded.traces));
    expect([...replayed.traces.values()].flat().map((t) => t.source)).toEqual(Array(6).fill("replayed"));
    expect([...replayed.traces.values()].flat().some((t) => t.hires.length >= 3)).toBe(true);
  });

  it("legacy: answers that name the recording's server and company are remapped to this run's", async () => {
    const cassettes = join(dir, "legacy");
    const recorded = await suite(PROFILES.legacy, ["empty-single-connector"], "record", cassettes, {
      samples: 1,
    });
    const replayed = await suite(mute(PROFILES.legacy), ["empty-single-connector"], "replay", cassettes, {
      samples: 1,
    });
    const only = (r: typeof recorded) => r.traces.get("empty-single-connector")![0]!;
    const [before, after] = [only(recorded), only(replayed)];
    // A faithful rollback (C4-7): the legacy session's system prompt is the legacy one — the
    // shell/HTTP documents — and never tells the CEO to use company tools it is not offered.
    const [file] = await readdir(join(cassettes, "empty-single-connector"));
    const entry = JSON.parse(await readFile(join(cassettes, "empty-single-connector", file!), "utf8")) as {
      request: { system: string };
    };
    expect(entry.request.system).toContain("Run every request with the bash tool as a `node -e` script");
    expect(entry.request.system).toContain("# Team Building Phase");
    expect(entry.request.system).not.toMatch(/hire_agent tool|file_approval tool/);
    expect(after.hires.length).toBeGreaterThanOrEqual(3);
    expect(after.hires.every((h) => h.via === "http")).toBe(true);
    expect({ trajectory: after.trajectory, hires: after.hires, final: after.finalState }).toEqual({
      trajectory: before.trajectory,
      hires: before.hires,
      final: before.finalState,
    });
  });

  it("a request with no recording stops the run, naming the scenario, the sample and the key", async () => {
    const cassettes = join(dir, "partial");
    await suite(semanticProfile, ["empty-single-connector"], "record", cassettes, { samples: 1 });
    // Sample 1 was never recorded: its salt differs, so its first request has no answer.
    await expect(
      suite(mute(semanticProfile), ["empty-single-connector"], "replay", cassettes, { samples: 2 }),
    ).rejects.toThrow(
      /cassette miss: scenario empty-single-connector, sample 1: no recording for request [0-9a-f]{64} in .*partial\/empty-single-connector/,
    );
    await expect(
      runProfile({
        profile: "semantic",
        samples: 1,
        only: ["empty-single-connector"],
        cassettes: "replay",
        cassettesDir: join(dir, "none"),
        env: NO_KEYS,
      }),
    ).rejects.toThrow(/none: no cassettes to replay/);
  });

  it("a vendor CEO recorded with a key replays with none: the runner fills a placeholder and says so", async () => {
    const cassettes = join(dir, "anthropic");
    const only = ["empty-single-connector"];
    // The scripted model stands in for Anthropic while recording; the request is an Anthropic one.
    const vendor = createScriptedStreamFn({ script: offlineCeoScript, seed: 3 }) as StreamFn;
    const recorded = await suite(semanticProfile, only, "record", cassettes, {
      samples: 1,
      ceoKind: "anthropic",
      vendor,
      env: { ...NO_KEYS, ANTHROPIC_API_KEY: "sk-test" },
    });
    const trace = recorded.traces.get(only[0]!)![0]!;
    expect(trace).toMatchObject({
      source: "live",
      terminal: "done",
      ceoRoute: expect.stringMatching(/^ceo-anthropic\/claude-/),
    });
    // Readiness follows the env the run was given, not the process's: the CEO was told its connector is ready.
    const [file] = await readdir(join(cassettes, only[0]!));
    const entry = JSON.parse(await readFile(join(cassettes, only[0]!, file!), "utf8")) as {
      request: { system: string };
    };
    expect(entry.request.system).toMatch(/- ceo-anthropic: Anthropic[^.]*\. Ready\. Models: claude-/);
    const notices: string[] = [];
    const replayed = await runProfile({
      profile: "semantic",
      samples: 1,
      seed: 11,
      only,
      connector: "anthropic",
      cassettes: "replay",
      cassettesDir: cassettes,
      env: NO_KEYS,
      onNotice: (n) => notices.push(n),
    });
    expect(notices.join("\n")).toMatch(
      /replay: ANTHROPIC_API_KEY, OPENAI_API_KEY set to a placeholder for readiness only; no model is called/,
    );
    const again = replayed.traces.get(only[0]!)![0]!;
    expect(again.source).toBe("replayed");
    expect(behaviour(replayed.traces)).toEqual(behaviour(recorded.traces));
    // Without the replay, the same run with no key is refused before anything runs.
    await expect(
      runProfile({ profile: "semantic", samples: 1, only, connector: "anthropic", env: NO_KEYS }),
    ).rejects.toThrow(/anthropic connector is not ready/);
  });
});
