// Cassettes that serve evaluation, through runProfile against the loopback
// stand-in (OpenAI Chat Completions over real HTTP, Cadre's real openai-compatible connector):
// record then replay is the same run with zero stand-in requests; a changed tool schema or system
// prompt is a miss that names the part; replay-or-record sends a miss live and records it, so the
// next replay hits; a damaged cassette file stops the run before any sample, naming file and field.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PiContext, StreamFn } from "@cadre/core";
import { plumbingCeo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunOptions, runProfile, STANDIN_MODEL } from "../evaluate.js";
import type { Trace } from "../trace/types.js";
import type { Break } from "./breaks.js";

let dir: string;
let standin: StandinServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-cassette-modes-"));
  standin = await startStandin({ policy: plumbingCeo() });
});
afterAll(async () => {
  await standin.close();
  await rm(dir, { recursive: true, force: true });
});

const NO_KEYS = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };
const SCENARIO = "empty-single-connector";

function run(cassettes: RunOptions["cassettes"], cassettesDir: string, extra: Partial<RunOptions> = {}) {
  return runProfile({
    profile: "semantic",
    samples: 2,
    seed: 11,
    concurrency: 1,
    only: [SCENARIO],
    connector: "openai-compatible",
    baseUrl: standin.openaiBaseUrl,
    model: STANDIN_MODEL,
    env: NO_KEYS,
    cassettes,
    cassettesDir,
    ...extra,
  });
}

const traces = (r: Awaited<ReturnType<typeof run>>): Trace[] => [...r.traces.values()].flat();
const behaviour = (r: Awaited<ReturnType<typeof run>>) =>
  traces(r).map((t) => ({
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

/** A candidate whose hire_agent schema was edited (a description tweak: the model is shown another tool). */
const editedSchema: Break = {
  name: "edited-hire-schema",
  description: "hire_agent's description gains a sentence",
  expectedFailure: "none",
  wrapStream:
    (inner: StreamFn): StreamFn =>
    (model, context: PiContext, options) =>
      inner(
        model,
        {
          ...context,
          tools: (context.tools ?? []).map((t) =>
            t.name === "hire_agent" ? { ...t, description: `${t.description} Prefer senior hires.` } : t,
          ),
        },
        options,
      ),
};

describe("cassettes against the stand-in", () => {
  it("record, then replay: the same traces, marked replayed, with zero stand-in requests", async () => {
    const cassettes = join(dir, "record-replay");
    const recorded = await run("record", cassettes);
    expect(traces(recorded).map((t) => [t.source, t.terminal])).toEqual([
      ["live", "done"],
      ["live", "done"],
    ]);
    expect(traces(recorded).every((t) => t.hires.length >= 1)).toBe(true);
    const live = standin.requests.length;
    expect(live).toBeGreaterThan(0);
    const files = await readdir(join(cassettes, SCENARIO));
    expect(files.length).toBe(traces(recorded).reduce((n, t) => n + t.usage.modelCalls, 0));

    const replayed = await run("replay", cassettes);
    expect(standin.requests.length).toBe(live);
    expect(behaviour(replayed)).toEqual(behaviour(recorded));
    expect(traces(replayed).map((t) => t.source)).toEqual(["replayed", "replayed"]);
    // Each entry keeps its parts' hashes: what a miss compares.
    const entry = JSON.parse(await readFile(join(cassettes, SCENARIO, files[0]!), "utf8")) as {
      schemaVersion: number;
      parts: Record<string, string>;
      request: { kind: string; model: string; mcp: unknown };
    };
    expect(entry.schemaVersion).toBe(2);
    expect(Object.keys(entry.parts).sort()).toEqual(
      ["kind", "mcp", "messages", "model", "salt", "system", "tools"].sort(),
    );
    expect(entry.request).toMatchObject({ kind: "openai-compatible", mcp: null });
    expect(entry.request.model).toContain(STANDIN_MODEL);
  });

  it("a changed tool schema is a miss naming tools; a changed mode document one naming the system prompt", async () => {
    const cassettes = join(dir, "misses");
    await run("record", cassettes, { samples: 1 });
    const live = standin.requests.length;
    await expect(run("replay", cassettes, { samples: 1, mutation: editedSchema })).rejects.toThrow(
      /cassette miss: scenario empty-single-connector, sample 0: no recording for request [0-9a-f]{64} in .*; nearest recording [0-9a-f]{12} of this sample differs in tools: tools changed \(a tool was added, removed, renamed or its description or schema edited\) \(tools [0-9a-f]{12} recorded, [0-9a-f]{12} now\)/,
    );
    await expect(run("replay", cassettes, { samples: 1, break: "no-hiring-instruction" })).rejects.toThrow(
      /differs in system: system prompt changed/,
    );
    // A sample that was never recorded says so.
    await expect(run("replay", cassettes, { samples: 2 })).rejects.toThrow(
      /sample 1: .*this sample has no recording at all/,
    );
    expect(standin.requests.length).toBe(live);
  });

  it("replay-or-record: a miss goes live and is recorded; the next replay hits", async () => {
    const cassettes = join(dir, "replay-or-record");
    await run("record", cassettes, { samples: 1 });
    const before = standin.requests.length;
    const mixed = await run("replay-or-record", cassettes, { samples: 2 });
    expect(traces(mixed).map((t) => [t.sample, t.source, t.terminal])).toEqual([
      [0, "replayed", "done"],
      [1, "live", "done"],
    ]);
    const after = standin.requests.length;
    expect(after).toBeGreaterThan(before);
    const replayed = await run("replay", cassettes, { samples: 2 });
    expect(standin.requests.length).toBe(after);
    expect(traces(replayed).map((t) => t.source)).toEqual(["replayed", "replayed"]);
    expect(behaviour(replayed)).toEqual(behaviour(mixed));
  });

  it("a damaged cassette file stops the run before any sample, naming the file and the field", async () => {
    const cassettes = join(dir, "damaged");
    await run("record", cassettes, { samples: 1 });
    const live = standin.requests.length;
    const [first, second] = (await readdir(join(cassettes, SCENARIO))).sort();
    const broken = join(cassettes, SCENARIO, first!);
    const good = await readFile(broken, "utf8");
    await writeFile(broken, good.slice(0, good.length / 2));
    await expect(run("replay", cassettes, { samples: 1 })).rejects.toThrow(
      new RegExp(
        `damaged cassette .*${first!.replace(".", "\\.")}: not valid JSON .*; delete the file or record again`,
      ),
    );
    await writeFile(broken, good);
    const other = join(cassettes, SCENARIO, second!);
    const entry = JSON.parse(await readFile(other, "utf8")) as Record<string, unknown>;
    delete entry["response"];
    await writeFile(other, JSON.stringify(entry));
    await expect(run("replay-or-record", cassettes, { samples: 1 })).rejects.toThrow(
      new RegExp(`damaged cassette .*${second!.replace(".", "\\.")}: .*response`),
    );
    expect(standin.requests.length).toBe(live);
  });
});
