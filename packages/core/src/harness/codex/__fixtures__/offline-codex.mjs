#!/usr/bin/env node
// OFFLINE stand-in for the Codex executable, for tests only. It never reaches a vendor.
//
// Kept ONLY for what the real Codex binary cannot be made to produce against a stand-in model server
//; every other Codex test runs the real binary shipped in @openai/codex's platform package:
//  - a remote compaction that fails hard with invalid_encrypted_content (remote compaction is
//    OpenAI's own endpoint; a custom provider compacts locally);
//  - reconnect notices more often than any watchdog period, forever (the real binary backs off:
//    3 s, 8 s, 13 s, 23 s…), which is what shows that reconnect notices are not progress;
//  - a continuation whose wait proves the yielded work ended ("Script completed"): Codex 0.163 stops a
//    turn's commands with its exec process and writes no item for write_stdin/wait, so a real
//    continuation can only ever prove "lost-handle";
//  - an exec process that dies in the middle of an item.
//
// It is started the way @openai/codex-sdk starts `codex` (sdk/typescript/src/exec.ts):
//   codex exec --experimental-json [--config key=TOML]… [--model M] [--sandbox S] [--cd DIR]
//              [--skip-git-repo-check] [resume THREAD_ID]
// reads the prompt from stdin until EOF, and writes the `--experimental-json` JSONL events on stdout.
// Instead of calling a model it replays a recorded scenario (CADRE_OFFLINE_CODEX_SCENARIO), in which
// directive lines ({"$": …}) stand for what Codex does itself:
//   {"$":"mcp_call", id, server, tool, arguments}
//                          call a tool on an MCP server from `--config mcp_servers.<server>.*`, started
//                          the way Codex starts stdio servers (command, args, a default environment
//                          whitelist plus `env_vars`), through the real MCP client; emits the
//                          item.started / item.completed pair of an mcp_tool_call item
//   {"$":"hang"}           block until killed
//   {"$":"reconnect_forever", everyMs}   write Codex's reconnect notice every everyMs until killed
//   {"$":"exit", code, stderr?}   die at once (a stream cut)
//   {"$":"next_turn"}      separates the runs of a resumed thread
// Threads are kept under $CODEX_HOME/offline-threads so `resume ID` continues one (an unknown id fails
// as Codex does). With CADRE_OFFLINE_CODEX_SEQUENTIAL=1 the scenario's runs are played in order by
// whichever process comes next, resumed or on a new thread (a thread started after a rollover
// continues the scenario). What it received is appended to CADRE_OFFLINE_CODEX_LOG.
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const argv = process.argv.slice(2);
const logPath = process.env.CADRE_OFFLINE_CODEX_LOG;
const log = (entry) => {
  if (logPath) appendFileSync(logPath, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
};

// `codex debug models --bundled` (the adapter reads the bundled catalog for its model catalog entry).
if (argv[0] === "debug" && argv[1] === "models") {
  process.stdout.write(`${JSON.stringify({ models: [{ slug: "gpt-5.5", base_instructions: "You are Codex (offline stand-in).", supported_reasoning_levels: [], shell_type: "default", support_verbosity: false, truncation_policy: { mode: "bytes", limit: 10000 } }] })}\n`);
  process.exit(0);
}

if (argv[0] !== "exec" || argv[1] !== "--experimental-json") {
  process.stderr.write("offline-codex: expected `exec --experimental-json …`\n");
  process.exit(2);
}

// --config key=value: dotted keys, TOML literal values (the SDK writes JSON-compatible ones).
const config = {};
const options = {};
let resume;
for (let i = 2; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--config") {
    const text = argv[++i];
    const eq = text.indexOf("=");
    const path = text.slice(0, eq).split(".");
    let node = config;
    for (const key of path.slice(0, -1)) node = node[key] ??= {};
    node[path.at(-1)] = JSON.parse(text.slice(eq + 1));
  } else if (a === "resume") resume = argv[++i];
  else if (a === "--skip-git-repo-check") options.skipGitRepoCheck = true;
  else if (a.startsWith("--")) options[a.slice(2)] = argv[++i];
}

const home = process.env.CODEX_HOME;
if (!home) {
  process.stderr.write("offline-codex: CODEX_HOME must point at a scratch directory\n");
  process.exit(2);
}
const threadsDir = join(home, "offline-threads");
mkdirSync(threadsDir, { recursive: true });

const turns = [[]];
for (const text of readFileSync(process.env.CADRE_OFFLINE_CODEX_SCENARIO, "utf8").split("\n")) {
  if (!text.trim()) continue;
  const line = JSON.parse(text);
  if (line.$source !== undefined) continue; // a recorded fixture's header: where the lines come from
  if (line.$ === "next_turn") turns.push([]);
  else turns.at(-1).push(line);
}

const emit = (event) => process.stdout.write(`${JSON.stringify(event)}\n`);

// The variables Codex passes to a stdio MCP server without being told (codex-rs rmcp-client).
const DEFAULT_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "USER", "LANG", "LC_ALL", "TERM", "TMPDIR", "TZ"];
const clients = new Map();
async function client(server) {
  if (clients.has(server)) return clients.get(server);
  const spec = config.mcp_servers?.[server];
  if (!spec) throw new Error(`no MCP server "${server}" is configured`);
  const env = {};
  for (const name of [...DEFAULT_ENV, ...(spec.env_vars ?? [])]) if (process.env[name] !== undefined) env[name] = process.env[name];
  Object.assign(env, spec.env ?? {});
  const transport = new StdioClientTransport({ command: spec.command, args: spec.args ?? [], env, ...(spec.cwd ? { cwd: spec.cwd } : {}), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk) => (stderr += chunk));
  const c = new Client({ name: "offline-codex", version: "0.0.0" });
  try {
    await c.connect(transport);
  } catch (error) {
    throw new Error(`MCP client for \`${server}\` failed to start: ${error.message}${stderr ? `: ${stderr.trim()}` : ""}`);
  }
  const { tools } = await c.listTools();
  log({ kind: "mcp_tools", server, tools });
  const entry = { client: c, tools: tools.map((t) => t.name) };
  clients.set(server, entry);
  return entry;
}

async function mcpCall(line) {
  const item = { id: line.id, type: "mcp_tool_call", server: line.server, tool: line.tool, arguments: line.arguments, result: null, error: null, status: "in_progress" };
  emit({ type: "item.started", item });
  try {
    const { client: c, tools } = await client(line.server);
    const enabled = config.mcp_servers[line.server].enabled_tools;
    if (!tools.includes(line.tool) || (enabled && !enabled.includes(line.tool))) throw new Error(`unknown MCP tool ${line.server}/${line.tool}`);
    const result = await c.callTool({ name: line.tool, arguments: line.arguments });
    log({ kind: "mcp_result", tool: line.tool, result });
    emit({ type: "item.completed", item: { ...item, result: { content: result.content, structured_content: result.structuredContent ?? null }, status: result.isError ? "failed" : "completed" } });
  } catch (error) {
    emit({ type: "item.completed", item: { ...item, error: { message: error.message }, status: "failed" } });
  }
}

let threadId = randomUUID();
let turnIndex = 0;
// Sequential scenarios: the next run is the one after the last run any process played.
function claimSequentialTurn() {
  const counter = join(threadsDir, ".played");
  const played = existsSync(counter) ? Number(readFileSync(counter, "utf8")) : 0;
  writeFileSync(counter, String(played + 1));
  return played;
}
const sequential = process.env.CADRE_OFFLINE_CODEX_SEQUENTIAL === "1";
if (resume !== undefined) {
  const file = join(threadsDir, `${resume}.json`);
  if (!existsSync(file)) {
    process.stderr.write(`Error: no rollout found for thread id ${resume}\n`);
    process.exit(1);
  }
  threadId = resume;
  turnIndex = JSON.parse(readFileSync(file, "utf8")).turns;
}
if (sequential) turnIndex = claimSequentialTurn();

let prompt = "";
process.stdin.setEncoding("utf8");
for await (const chunk of process.stdin) prompt += chunk;
log({ kind: "run", argv, config, options, resume: resume ?? null, threadId, prompt });

// Required MCP servers are started (initialize, tools/list) before the thread starts, as Codex does.
for (const [name, spec] of Object.entries(config.mcp_servers ?? {})) if (spec.required) await client(name);
emit({ type: "thread.started", thread_id: threadId });
for (const line of turns[turnIndex] ?? []) {
  switch (line.$) {
    case undefined:
      emit(line);
      break;
    case "mcp_call":
      await mcpCall(line);
      break;
    case "hang":
      // A timer keeps the process alive: a bare pending promise would let Node exit (code 13).
      await new Promise(() => setInterval(() => {}, 60_000));
      break;
    case "reconnect_forever":
      // Codex's notice with no route to its model server, but every `everyMs`: more often than any watchdog.
      await new Promise(() =>
        setInterval(() => emit({ type: "error", message: "Reconnecting... waiting for network (Connection failed: error sending request)" }), line.everyMs ?? 100),
      );
      break;
    case "exit":
      if (line.stderr) process.stderr.write(line.stderr);
      process.exit(line.code);
  }
}
writeFileSync(join(threadsDir, `${threadId}.json`), JSON.stringify({ turns: turnIndex + 1 }));
for (const { client: c } of clients.values()) await c.close();
process.exit(0);
