// A provider that fails mid-run, on the REAL Claude Code and Codex binaries against a loopback
// @cadre/standin server (offline): the model's first call is answered (a hire_agent call the tool
// refuses), every later one fails — 500, 429, a stream cut mid-answer, or the endpoint goes away
// (its port closed). With the connector's retry bound at 1 (and Codex's unreachable bound at 5 s),
// the wake ends failed (within the test's timeout: the harness's own retries are
// bounded), the run's error carries the provider's status (or the network failure), and the run's usage is what the
// stand-in served before the fault, to the token.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCompany, loadCompanyState, wakeAgent } from "@cadre/company";
import type { Usage } from "@cadre/core";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { findTool, type Reply, reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

type Hire = NonNullable<ReturnType<typeof findTool>>;
const hireLead = (hire: Hire) =>
  reply.toolCall(hire, {
    name: "Lead",
    role: "Lead",
    description: "A lead.",
    connectorId: "no-such-connector",
    model: "no-such-model",
  });

type Kind = "claude-code" | "codex";
const FAULTS: Array<{ fault: string; answer: (hire: Hire, kind: Kind) => Reply; error: RegExp }> = [
  {
    fault: "500",
    answer: () => reply.error("server", { status: 500, message: "upstream broke" }),
    error: /500/,
  },
  {
    fault: "429",
    answer: () => reply.error("rate_limit", { status: 429, message: "slow down" }),
    error: /429/,
  },
  // The connection is reset mid-answer: on the Responses wire after its first event (the usage
  // comes last); on Anthropic's before any (its first event carries the input's usage, which the
  // stand-in's record does not split from the output it never sent).
  {
    fault: "a cut stream",
    answer: (hire, kind) => reply.cut(hireLead(hire), kind === "codex" ? 1 : 0, "reset"),
    error: /\(ECONNRESET\)|stream disconnected before completion/,
  },
  // The endpoint goes away: this call is left unanswered and the port closes (each retry is refused).
  {
    fault: "an endpoint that dies",
    answer: () => (void server.close(), reply.hang()),
    error: /connection refused.*ECONNREFUSED|could not be reached for 5 s/i,
  },
];

let dir: string;
let store: Store;
let server: StandinServer;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-harness-faults-"));
  store = await openStore({ path: join(dir, "cadre.db") });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await server?.close();
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

const HARNESSES = [
  { kind: "claude-code" as const, binary: REAL_CLAUDE_CODE },
  { kind: "codex" as const, binary: REAL_CODEX },
];

describe.each(HARNESSES)("a provider failing mid-run on the real $kind binary", ({ kind, binary }) => {
  it.skipIf(!binary).each(FAULTS)(
    "$fault after one answered call: the wake fails saying why, usage to the token",
    async (f) => {
      let answered = 0;
      server = await startStandin({
        policy: (request) => {
          const hire = findTool(request, "hire_agent");
          if (!hire) return reply.text("ready (stand-in)");
          if (answered > 0) return f.answer(hire, kind);
          answered++;
          return hireLead(hire);
        },
      });
      const home = join(dir, "home");
      await mkdir(home, { recursive: true });
      if (kind === "claude-code") vi.stubEnv("ANTHROPIC_BASE_URL", server.anthropicBaseUrl);
      const company = await createCompany(store, {
        name: "Northwind Robotics",
        goal: "Build autonomous warehouse robots.",
        connectors: [
          kind === "codex"
            ? { kind, config: { baseUrl: server.openaiBaseUrl, maxRetries: 1, unreachableMs: 5000 } }
            : { kind: "claude-code", config: { maxRetries: 1 } },
        ],
        ceoConnectorId: kind,
      });
      const { ceo } = await loadCompanyState(store, company.id);
      const result = await wakeAgent({
        store,
        agentId: ceo.id,
        dataDir: dir,
        trigger: "start_team_building",
        env: kind === "codex" ? codexTestEnv(home) : claudeCodeTestEnv(home, server.anthropicBaseUrl),
        ...(kind === "codex" ? { cadreCommand: [process.execPath, BIN] } : {}),
      });
      expect(result.terminal).toBe("failed");
      expect(result.run.error).toMatch(f.error);
      // What the one answered call used (a cut answer's counts never reached the harness).
      const first = server.modelCalls().find((c) => findTool(c.request, "hire_agent") && c.answered?.usage);
      const u = first!.answered!.usage!;
      const spent: Usage = {
        input: u.input,
        output: u.output,
        cacheRead: u.cacheRead,
        cacheWrite: u.cacheWrite,
      };
      expect(answered).toBe(1);
      expect(spent.input + spent.cacheWrite + spent.cacheRead).toBeGreaterThan(0);
      expect(result.run.usage).toEqual(spent);
      expect(await store.listModelCalls(result.run.id)).toHaveLength(1);
      // The failure is said once: one error event besides the harness's retry notices (Claude Code's
      // and Codex's alike, said as Cadre's "retrying (n of m)").
      const errors = (await store.listRunEvents(result.run.id))
        .filter((e) => e.type === "error")
        .map((e) => e.data as { code?: string; message: string })
        .filter((e) => e.code !== "retrying");
      expect(errors).toHaveLength(1);
      expect(result.run.error).toContain(errors[0]!.message);
    },
    150_000,
  );
});
