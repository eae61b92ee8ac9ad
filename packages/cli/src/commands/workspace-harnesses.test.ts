// A member works in its own workspace, on every harness: the REAL Claude Code and Codex binaries and
// Pi (its SDK), each against a loopback @cadre/standin model. The model (scripted by the tools it is
// offered, step by step as the conversation grows) writes a file in its workspace with the harness's
// own file tool, tries to write one outside it, and hands the first in with update_task. The write
// inside lands and is kept with the task; the write outside is refused (by the workspace guard, or
// Codex's sandbox), nothing lands there, and the refusal is an error tool result in the run's
// events. The CEO, on the same harness, is offered no file tool at all. Then the review round trip:
// the CEO asks for changes, the member revises in its workspace, the CEO accepts.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { wakeAgent, workspaceOf } from "@cadre/company";
import type { AgentEvent } from "@cadre/core";
import { claudeCodeTestEnv, codexTestEnv, REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import {
  findTool,
  reply,
  startStandin,
  type StandinRequest,
  type StandinServer,
  toolNames,
} from "@cadre/standin";
import { startServer } from "@cadre/server";
import { openStore, type Store } from "@cadre/store";
import { memberAtWork } from "../testing/member-at-work.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const REPORT = "# Warehouse survey\n\nAisles 1-4 measured.\n";
const PI_MODEL = { id: "workspace-chat-7b", contextWindow: 32768 };

type Kind = "claude-code" | "codex" | "pi";

/** How the model asks a harness's own file tool to create a file (what each harness offers differs). */
interface FileTool {
  name: string;
  create(path: string, text: string): unknown;
}

const FILE_TOOLS: Record<Kind, FileTool> = {
  // Claude Code's Write takes an absolute path.
  "claude-code": { name: "Write", create: (path, text) => ({ file_path: path, content: text }) },
  // Codex's apply_patch, a freeform tool: the patch text that adds the file.
  codex: {
    name: "apply_patch",
    create: (path, text) =>
      `*** Begin Patch\n*** Add File: ${path}\n${text
        .split("\n")
        .slice(0, -1)
        .map((l) => `+${l}`)
        .join("\n")}\n*** End Patch\n`,
  },
  pi: { name: "write", create: (path, text) => ({ path, content: text }) },
};

/** Every file tool any harness offers, by the names the model sees. */
const ANY_FILE_TOOL = ["Read", "Write", "Edit", "Glob", "Grep", "apply_patch", "read", "write", "edit", "ls"];

let dir: string;
let store: Store;
let server: StandinServer | undefined;
const homes: string[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-workspace-harnesses-"));
  store = await openStore({ path: join(dir, "cadre.db") });
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});

/** Every tool call the model made in the conversation so far, in order. */
const calls = (request: StandinRequest) =>
  request.messages.flatMap((m) => m.content).flatMap((b) => (b.type === "tool_call" ? [b] : []));

type Policy = (request: StandinRequest) => ReturnType<typeof reply.text>;

/**
 * A model that acts on each new message of the conversation: `next` is given the tool calls it made
 * since the last message that was not a tool result (the wake's cue), and says what comes next.
 */
function conversation(
  next: (request: StandinRequest, since: ReturnType<typeof calls>) => ReturnType<typeof reply.text>,
): Policy {
  return (request) => {
    const blocks = request.messages.flatMap((m) => m.content.map((b) => ({ role: m.role, b })));
    const cue = blocks.findLastIndex((x) => x.role === "user" && x.b.type === "text");
    const since = blocks.slice(cue + 1).flatMap((x) => (x.b.type === "tool_call" ? [x.b] : []));
    return next(request, since);
  };
}

const toolResults = (request: StandinRequest) =>
  request.messages.flatMap((m) => m.content).filter((b) => b.type === "tool_result").length;

/**
 * The member's model: step N of its conversation (N tool results so far) asks for the Nth action —
 * the file in the workspace, the file outside it, the hand-in — then says it is done. A request
 * that offers no update_task (the CEO's, a probe) is answered with text.
 */
function memberModel(kind: Kind, plan: { inside: string; outside: string; taskId: string }) {
  return (request: StandinRequest) => {
    const update = findTool(request, "update_task");
    const file = request.tools.find((t) => t.name === FILE_TOOLS[kind].name && !t.deferred);
    if (!update || !file) return reply.text("Nothing for me to do now.");
    const step = toolResults(request);
    if (step === 0) return reply.toolCall(file, FILE_TOOLS[kind].create(plan.inside, REPORT));
    if (step === 1) return reply.toolCall(file, FILE_TOOLS[kind].create(plan.outside, "escaped\n"));
    if (step === 2)
      return reply.toolCall(update, {
        taskId: plan.taskId,
        status: "done",
        deliverable: "The survey is in report.md.",
        files: ["report.md"],
      });
    return reply.text("Handed in.");
  };
}

interface Setup {
  companyId: string;
  ceo: string;
  lead: string;
  taskId: string;
  env: Record<string, string>;
}

async function operatingCompany(kind: Kind, standin: StandinServer): Promise<Setup> {
  // Codex makes its helper commands (apply_patch among them) under CODEX_HOME, and refuses to under
  // a temp dir: its home is a folder of the user's own cache.
  const home = await mkdtemp(join(homedir(), ".cache", "cadre-workspace-home-"));
  homes.push(home);
  const env: Record<string, string> =
    kind === "claude-code"
      ? claudeCodeTestEnv(home, standin.anthropicBaseUrl)
      : kind === "codex"
        ? codexTestEnv(home)
        : { PATH: process.env["PATH"] ?? "", WORKSPACE_PI_KEY: "sk-workspace-not-a-key" };
  const connector =
    kind === "claude-code"
      ? { kind: "claude-code" as const, config: { executablePath: REAL_CLAUDE_CODE! } }
      : kind === "codex"
        ? { kind: "codex" as const, config: { baseUrl: standin.openaiBaseUrl } }
        : {
            id: "pi",
            kind: "openai-compatible" as const,
            config: { baseUrl: standin.openaiBaseUrl, apiKeyEnv: "WORKSPACE_PI_KEY", models: [PI_MODEL] },
          };
  const member = await memberAtWork(store, {
    dataDir: dir,
    connector,
    connectorId: kind,
    env,
    ...(kind === "pi" ? { model: PI_MODEL.id } : {}),
  });
  return { ...member, env };
}

async function eventsOf(runId: string): Promise<AgentEvent[]> {
  return (await store.listRunEvents(runId)).map((e) => e.data as AgentEvent);
}

const HARNESSES: Array<{ kind: Kind; ready: boolean }> = [
  { kind: "claude-code", ready: REAL_CLAUDE_CODE !== undefined },
  { kind: "codex", ready: REAL_CODEX !== undefined },
  { kind: "pi", ready: true },
];

describe.each(HARNESSES)("workspaces on $kind", ({ kind, ready }) => {
  it.skipIf(!ready)(
    "a member writes its deliverable in its workspace and hands it in; a write outside is refused and shown; the CEO has no file tool",
    async () => {
      const plan = { inside: "", outside: join(dir, "outside.md"), taskId: "" };
      // The member's model is scripted once its task exists; until then, text.
      const member: { model?: (r: StandinRequest) => ReturnType<typeof reply.text> } = {};
      server = await startStandin({
        policy: (request) => (member.model ? member.model(request) : reply.text("Nothing for me to do now.")),
      });
      const setup = await operatingCompany(kind, server);
      const workspace = workspaceOf({ dataDir: dir, companyId: setup.companyId, agentId: setup.lead });
      // Made at hire: the member's workspace is there before its first wake.
      expect(existsSync(workspace)).toBe(true);
      plan.inside = kind === "claude-code" ? join(workspace, "report.md") : "report.md";
      plan.taskId = setup.taskId;
      member.model = memberModel(kind, plan);

      const lead = await wakeAgent({
        store,
        agentId: setup.lead,
        dataDir: dir,
        env: setup.env,
        ...(kind === "codex" ? { cadreCommand: [process.execPath, BIN] } : {}),
      });
      const events = await eventsOf(lead.run.id);
      expect(lead.terminal, JSON.stringify(events.filter((e) => e.type === "error"))).toBe("done");

      // The write inside landed, in the workspace; nothing landed outside it.
      expect(await readFile(join(workspace, "report.md"), "utf8")).toBe(REPORT);
      expect(existsSync(plan.outside)).toBe(false);
      // The refusal is in the run: an error result of the file tool naming why.
      const results = events.filter(
        (e): e is Extract<AgentEvent, { type: "tool_result" }> => e.type === "tool_result",
      );
      // (Codex's exec stream names a patch it applied a file_change; one it refused is apply_patch.)
      const fileResults = results.filter((r) => [FILE_TOOLS[kind].name, "file_change"].includes(r.name));
      expect(fileResults.map((r) => r.isError)).toEqual([false, true]);
      const refusal = fileResults[1]!.content.map((c) => (c.type === "text" ? c.text : "")).join(" ");
      expect(refusal).toMatch(
        kind === "codex" ? /outside of the project|rejected/i : /outside your workspace/,
      );
      // The hand-in: the file kept with the task, which waits for review.
      expect((await store.getTask(setup.taskId))?.status).toBe("in_review");
      const [kept] = await store.listTaskFiles(setup.taskId);
      expect(kept).toMatchObject({ name: "report.md", addedBy: setup.lead });
      expect(Buffer.from((await store.getTaskFile(kept!.id))!.content).toString()).toBe(REPORT);
      // What the member was offered is recorded with its run, as each harness says it.
      const offered = events.find((e) => e.type === "harness_tools");
      expect(offered).toMatchObject({ tools: expect.arrayContaining([FILE_TOOLS[kind].name]) });
      expect(offered && "problem" in offered ? offered.problem : undefined).toBeUndefined();

      // The CEO on the same harness: company tools only, as recorded and as the model saw them.
      const calls = server.modelCalls().length;
      const ceo = await wakeAgent({
        store,
        agentId: setup.ceo,
        dataDir: dir,
        env: setup.env,
        ...(kind === "codex" ? { cadreCommand: [process.execPath, BIN] } : {}),
      });
      expect(ceo.terminal).toBe("done");
      const seen = server
        .modelCalls()
        .slice(calls)
        .filter((c) => c.request.tools.length > 0);
      expect(seen.length).toBeGreaterThan(0);
      for (const call of seen) {
        const names = toolNames(call.request);
        expect(names.some((n) => n.endsWith("create_task"))).toBe(true);
        expect(names.filter((n) => ANY_FILE_TOOL.includes(n))).toEqual([]);
      }
      const ceoTools = (await eventsOf(ceo.run.id)).find((e) => e.type === "harness_tools");
      expect(ceoTools).toBeDefined();
      const listed = (ceoTools as { tools: string[] }).tools;
      expect(listed.filter((n) => ANY_FILE_TOOL.includes(n))).toEqual([]);
    },
    240_000,
  );

  it.skipIf(!ready)(
    "the CEO asks for changes, the member revises in its workspace, the CEO accepts: done, with both files kept",
    async () => {
      const revised = "# Warehouse survey\n\nAisles 1-6 measured, with dates.\n";
      const script: { member?: Policy; ceo?: Policy } = {};
      server = await startStandin({
        policy: (request) =>
          findTool(request, "review_task")
            ? (script.ceo?.(request) ?? reply.text("Nothing to review."))
            : (script.member?.(request) ?? reply.text("Nothing for me to do now.")),
      });
      const setup = await operatingCompany(kind, server);
      const workspace = workspaceOf({ dataDir: dir, companyId: setup.companyId, agentId: setup.lead });
      const at = (name: string) => (kind === "claude-code" ? join(workspace, name) : name);
      script.member = conversation((request, since) => {
        const update = findTool(request, "update_task")!;
        const file = request.tools.find((t) => t.name === FILE_TOOLS[kind].name && !t.deferred)!;
        const handIns = calls(request).filter((c) => c.name.endsWith("update_task")).length;
        const name = handIns === 0 ? "report.md" : "report-2.md";
        if (since.length === 0)
          return reply.toolCall(file, FILE_TOOLS[kind].create(at(name), handIns === 0 ? REPORT : revised));
        if (since.length === 1)
          return reply.toolCall(update, {
            taskId: setup.taskId,
            status: "done",
            deliverable: `In ${name}.`,
            files: [name],
          });
        return reply.text("Handed in.");
      });
      script.ceo = conversation((request, since) => {
        if (since.length > 0) return reply.text("Reviewed.");
        const review = findTool(request, "review_task")!;
        const reviews = calls(request).filter((c) => c.name.endsWith("review_task")).length;
        return reply.toolCall(
          review,
          reviews === 0
            ? {
                taskId: setup.taskId,
                decision: "request_changes",
                reasons: "Measure aisles 5 and 6 too, with dates.",
              }
            : { taskId: setup.taskId, decision: "accept" },
        );
      });
      const wake = (agentId: string) =>
        wakeAgent({
          store,
          agentId,
          dataDir: dir,
          env: setup.env,
          ...(kind === "codex" ? { cadreCommand: [process.execPath, BIN] } : {}),
        });
      const status = async () => (await store.getTask(setup.taskId))?.status;

      expect((await wake(setup.lead)).terminal).toBe("done");
      expect(await status()).toBe("in_review");
      expect((await wake(setup.ceo)).terminal).toBe("done");
      expect(await status()).toBe("in_progress");
      // The reasons reach the member with its next wake.
      const back = await wake(setup.lead);
      expect(back.terminal).toBe("done");
      expect(back.cue + JSON.stringify(server.modelCalls().at(-1)?.request.messages)).toContain(
        "aisles 5 and 6",
      );
      expect(await status()).toBe("in_review");
      expect((await wake(setup.ceo)).terminal).toBe("done");
      expect(await status()).toBe("done");
      // Both hand-ins are kept as they were handed in, the revision too.
      const files = await store.listTaskFiles(setup.taskId);
      expect(files.map((f) => f.name).sort()).toEqual(["report-2.md", "report.md"]);
      const kept = files.find((f) => f.name === "report-2.md")!;
      expect(Buffer.from((await store.getTaskFile(kept.id))!.content).toString()).toBe(revised);
      // And readable where the dashboard reads it: the API's file route, as it was handed in.
      const api = await startServer({ store, port: 0, dataDir: dir, env: setup.env, log: () => {} });
      try {
        const served = await fetch(`${api.url}/api/tasks/${setup.taskId}/files/${kept.id}`, {
          headers: { authorization: `Bearer ${api.operatorToken}` },
        });
        expect(served.status).toBe(200);
        expect(await served.text()).toBe(revised);
      } finally {
        await api.close();
      }
    },
    300_000,
  );
});
