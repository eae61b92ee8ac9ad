// Eval cassettes on the harnesses that call the model themselves: `cadre eval` with
// --connector claude-code or codex (the REAL binaries, against a loopback stand-in, as live.test.ts
// runs them; Codex's company tools through `cadre mcp`) records the wake's event stream, replays it
// without launching the binary or reaching the model, and a candidate whose prompt changed misses,
// naming the part that differed.
import { mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { plumbingCeo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import type { Trace } from "../trace/types.js";

const ONE = ["empty-single-connector"];
const CLI = fileURLToPath(new URL("../../../cli/bin/cadre.js", import.meta.url));

let dir: string;
let server: StandinServer | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-eval-harness-cassettes-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const all = (r: { traces: Map<string, Trace[]> }) => [...r.traces.values()].flat();
const hiresOf = (t: Trace) =>
  t.hires.map((h) => ({ name: h.name, role: h.role, model: h.model, via: h.via }));

describe("eval cassettes on the harnesses' own binaries", () => {
  it.skipIf(!REAL_CLAUDE_CODE)(
    "claude-code: record, then replay with no stand-in request and the same hires; a changed prompt misses naming it",
    async () => {
      server = await startStandin({ policy: plumbingCeo() });
      const home = join(dir, "claude-home");
      await mkdir(home, { recursive: true });
      const cassettesDir = join(dir, "claude-cassettes");
      const run = (extra: Record<string, unknown>) =>
        runProfile({
          profile: "semantic",
          samples: 1,
          seed: 4,
          only: ONE,
          connector: "claude-code",
          baseUrl: server!.anthropicBaseUrl,
          env: claudeCodeTestEnv(home, server!.anthropicBaseUrl),
          cassettesDir,
          ...extra,
        });

      const [recorded] = all(await run({ cassettes: "record" }));
      expect(recorded).toMatchObject({ source: "live", terminal: "done" });
      expect(recorded!.hires.length).toBeGreaterThanOrEqual(3);
      const sent = server.modelCalls().length;
      expect(sent).toBeGreaterThan(0);
      expect(await readdir(join(cassettesDir, ONE[0]!))).not.toHaveLength(0);

      const [replayed] = all(await run({ cassettes: "replay" }));
      // No request reached the stand-in: the binary was never launched.
      expect(server.modelCalls().length).toBe(sent);
      expect(replayed).toMatchObject({ source: "replayed", terminal: "done" });
      expect(hiresOf(replayed!)).toEqual(hiresOf(recorded!));
      expect(replayed!.toolCalls.map((c) => [c.name, c.ok])).toEqual(
        recorded!.toolCalls.map((c) => [c.name, c.ok]),
      );

      // A break applies to harness runs through the prompt: a changed mode document is a changed
      // system prompt, which misses (never replays a stale answer) and says so.
      await expect(run({ cassettes: "replay", break: "no-hiring-instruction" })).rejects.toThrow(
        /cassette miss: scenario empty-single-connector, sample 0: .*system prompt changed/,
      );
      expect(server.modelCalls().length).toBe(sent);
    },
  );

  it.skipIf(!REAL_CODEX)(
    "codex: the same through `cadre mcp` on the sample's store: replay reaches no model, hires the same, a changed prompt misses",
    async () => {
      server = await startStandin({ policy: plumbingCeo() });
      const cassettesDir = join(dir, "codex-cassettes");
      const run = (extra: Record<string, unknown>) =>
        runProfile({
          profile: "semantic",
          samples: 1,
          seed: 4,
          only: ONE,
          connector: "codex",
          baseUrl: server!.openaiBaseUrl,
          env: codexTestEnv(join(dir, "codex-home")),
          cadreCommand: [process.execPath, CLI],
          cassettesDir,
          ...extra,
        });
      const [recorded] = all(await run({ cassettes: "record" }));
      expect(recorded!.errors).toEqual([]);
      expect(recorded).toMatchObject({ source: "live", terminal: "done" });
      expect(recorded!.hires.length).toBeGreaterThanOrEqual(3);
      const sent = server.requests.length;
      expect(sent).toBeGreaterThan(0);

      const [replayed] = all(await run({ cassettes: "replay" }));
      expect(server.requests.length).toBe(sent);
      expect(replayed).toMatchObject({ source: "replayed", terminal: "done" });
      expect(hiresOf(replayed!)).toEqual(hiresOf(recorded!));
      await expect(run({ cassettes: "replay", break: "no-hiring-instruction" })).rejects.toThrow(
        /cassette miss: scenario empty-single-connector, sample 0: .*system prompt changed/,
      );
      expect(server.requests.length).toBe(sent);
    },
  );
});
