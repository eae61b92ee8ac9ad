// The shell for a Codex member only inside Codex's workspace-write sandbox, on the REAL binary
// against a loopback @cadre/standin model: off by default (no exec_command offered); turned on for
// the connector (`config.shell: true`), a command writing inside the member's workspace lands and
// one writing outside it is refused by the sandbox: nothing lands there.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { wakeAgent, workspaceOf } from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import { codexTestEnv, REAL_CODEX } from "@cadre/core/testing";
import { reply, startStandin, type StandinServer, toolNames } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { memberAtWork } from "../testing/member-at-work.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

let dir: string;
let store: Store;
let server: StandinServer | undefined;
let home: string | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-codex-shell-"));
  store = await openStore({ path: join(dir, "cadre.db") });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
  if (home) await rm(home, { recursive: true, force: true });
  home = undefined;
});

async function memberOn(shell: boolean, standin: StandinServer) {
  // Codex makes its helper commands under CODEX_HOME and refuses to under a temp dir.
  home = await mkdtemp(join(homedir(), ".cache", "cadre-codex-shell-home-"));
  const env = codexTestEnv(home);
  const { companyId, lead: agentId } = await memberAtWork(store, {
    dataDir: dir,
    connector: {
      kind: "codex",
      config: { baseUrl: standin.openaiBaseUrl, ...(shell ? { shell: true } : {}) },
    },
    connectorId: "codex",
    env,
  });
  const workspace = workspaceOf({ dataDir: dir, companyId, agentId });
  return {
    workspace,
    wake: async () => {
      const run = await wakeAgent({
        store,
        agentId,
        dataDir: dir,
        env,
        cadreCommand: [process.execPath, BIN],
      });
      return { run, events: (await store.listRunEvents(run.run.id)).map((e) => e.data as AgentEvent) };
    },
  };
}

/** A model that, whenever Codex offers its shell, writes one file inside the workspace and one outside it. */
function shellModel(paths: { inside: string; outside: string }) {
  return startStandin({
    policy: (request) => {
      const exec = request.tools.find((t) => t.name === "exec_command" && !t.deferred);
      if (!exec) return reply.text("Nothing for me to do now.");
      // What it asked for so far in this conversation, not how many answers came back.
      const step = request.messages
        .flatMap((m) => m.content)
        .filter((b) => b.type === "tool_call" && b.name === "exec_command").length;
      if (step === 0) return reply.toolCall(exec, { cmd: `echo inside > ${paths.inside}` });
      if (step === 1) return reply.toolCall(exec, { cmd: `echo escaped > ${paths.outside}` });
      return reply.text("Done.");
    },
  });
}

const commands = (events: AgentEvent[]) =>
  events.filter(
    (e): e is Extract<AgentEvent, { type: "tool_result" }> =>
      e.type === "tool_result" && e.name === "command_execution",
  );

describe.skipIf(REAL_CODEX === undefined)("the shell on Codex", () => {
  it("off by default: no shell is offered, and no command runs", async () => {
    const paths = { inside: "", outside: join(dir, "outside.txt") };
    server = await shellModel(paths);
    const member = await memberOn(false, server);
    paths.inside = join(member.workspace, "inside.txt");
    const { run, events } = await member.wake();
    expect(run.terminal).toBe("done");
    const offered = events.find((e) => e.type === "harness_tools") as { tools: string[] } | undefined;
    expect(offered?.tools).toContain("apply_patch");
    expect(offered?.tools).not.toContain("exec_command");
    for (const call of server.modelCalls()) expect(toolNames(call.request)).not.toContain("exec_command");
    expect(commands(events)).toEqual([]);
    expect(existsSync(paths.inside)).toBe(false);
    expect(existsSync(paths.outside)).toBe(false);
  }, 240_000);

  it("turned on, it runs in Codex's workspace-write sandbox: a write inside lands, one outside never does", async () => {
    const paths = { inside: "", outside: join(dir, "outside.txt") };
    server = await shellModel(paths);
    const member = await memberOn(true, server);
    paths.inside = join(member.workspace, "inside.txt");
    const { run, events } = await member.wake();
    expect(run.terminal).toBe("done");
    const offered = events.find((e) => e.type === "harness_tools") as { tools: string[]; problem?: string };
    expect(offered.tools).toContain("exec_command");
    expect(offered.problem).toBeUndefined();
    expect(await readFile(paths.inside, "utf8")).toBe("inside\n");
    expect(existsSync(paths.outside)).toBe(false);
    const ran = commands(events);
    const byCommand = (word: string) =>
      ran.filter((r) => {
        const use = events.find((e) => e.type === "tool_use" && e.id === r.toolUseId);
        return JSON.stringify(use).includes(word);
      });
    expect(byCommand("echo inside").map((r) => r.isError)).toEqual([false]);
    // The command outside never succeeds: where the run shows it, it failed and says why.
    for (const refused of byCommand("echo escaped")) {
      expect(refused.isError).toBe(true);
      expect(refused.content.map((c) => (c.type === "text" ? c.text : "")).join("")).toMatch(
        /read-only file system|permission denied|operation not permitted/i,
      );
    }
    // The model did ask for it: the write outside was attempted, not skipped.
    const asked = server.modelCalls().flatMap((c) => c.request.messages.flatMap((m) => m.content));
    expect(
      asked.filter((b) => b.type === "tool_call" && b.name === "exec_command").length,
    ).toBeGreaterThanOrEqual(2);
  }, 240_000);
});
