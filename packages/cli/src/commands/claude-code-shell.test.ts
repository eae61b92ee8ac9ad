// The shell for a Claude Code member only inside Claude Code's sandbox, on the REAL binary against a
// loopback @cadre/standin model. Off by default: the member is offered its file tools and no Bash.
// Turned on for the connector (`config.shell: true`), the session asks Claude Code for its sandbox
// and allows no unsandboxed command: where the sandbox cannot run (on Linux it needs bubblewrap and
// socat), the run fails, saying so, and no shell command the model asked for ever runs.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { wakeAgent } from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import { claudeCodeTestEnv, REAL_CLAUDE_CODE } from "@cadre/core/testing";
import { findTool, reply, startStandin, type StandinServer, toolNames } from "@cadre/standin";
import { openStore, type Store } from "@cadre/store";
import { memberAtWork } from "../testing/member-at-work.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let dir: string;
let store: Store;
let server: StandinServer | undefined;
let home: string | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-claude-code-shell-"));
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
  home = await mkdtemp(join(homedir(), ".cache", "cadre-shell-home-"));
  const env = claudeCodeTestEnv(home, standin.anthropicBaseUrl);
  const { lead, taskId } = await memberAtWork(store, {
    dataDir: dir,
    connector: {
      kind: "claude-code",
      config: { executablePath: REAL_CLAUDE_CODE!, ...(shell ? { shell: true } : {}) },
    },
    connectorId: "claude-code",
    env,
  });
  const run = await wakeAgent({ store, agentId: lead, dataDir: dir, env });
  const events = (await store.listRunEvents(run.run.id)).map((e) => e.data as AgentEvent);
  return { run, events, taskId };
}

/** The member's model: a shell command that writes outside the workspace whenever Bash is offered. */
function shellModel(outside: string) {
  return startStandin({
    policy: (request) => {
      const bash = request.tools.find((t) => t.name === "Bash" && !t.deferred);
      if (bash && !request.messages.some((m) => m.content.some((b) => b.type === "tool_result")))
        return reply.toolCall(bash, { command: `echo escaped > ${outside}`, description: "write a file" });
      return findTool(request, "update_task") ? reply.text("Nothing for me to do now.") : reply.text("Ok.");
    },
  });
}

/** Whether Claude Code's sandbox can run here (macOS: built in; Linux: bubblewrap and socat). */
function onPath(name: string): boolean {
  return (process.env["PATH"] ?? "").split(delimiter).some((d) => d !== "" && existsSync(join(d, name)));
}
const sandboxCanRun = process.platform === "darwin" || (onPath("bwrap") && onPath("socat"));

describe.skipIf(REAL_CLAUDE_CODE === undefined)("the shell on Claude Code", () => {
  it("off by default: the member is offered its file tools and no Bash", async () => {
    const outside = join(dir, "outside.txt");
    server = await shellModel(outside);
    const { run, events } = await memberOn(false, server);
    expect(run.terminal).toBe("done");
    const offered = events.find((e) => e.type === "harness_tools") as { tools: string[] } | undefined;
    expect(offered?.tools).toEqual(expect.arrayContaining(["Write", "Read"]));
    expect(offered?.tools).not.toContain("Bash");
    for (const call of server.modelCalls()) expect(toolNames(call.request)).not.toContain("Bash");
    expect(existsSync(outside)).toBe(false);
  }, 180_000);

  it.skipIf(sandboxCanRun)(
    "turned on, it runs only in Claude Code's sandbox: where the sandbox cannot run, the run fails, saying so, and no command runs",
    async () => {
      const outside = join(dir, "outside.txt");
      server = await shellModel(outside);
      const { run, events, taskId } = await memberOn(true, server);
      expect(run.terminal).toBe("failed");
      const failure = events.find((e) => e.type === "terminal") as { reason?: string } | undefined;
      // Claude Code's own refusal to start without its sandbox — not Cadre's Pi rule, which is Pi's only.
      expect(failure?.reason).toMatch(/sandbox required but unavailable/i);
      expect(failure?.reason).not.toMatch(/Pi-routed/);
      // Nothing reached the model, so no shell command was asked for, let alone run.
      expect(server.modelCalls()).toEqual([]);
      expect(existsSync(outside)).toBe(false);
      expect((await store.getTask(taskId))?.status).toBe("todo");
    },
    180_000,
  );
});
