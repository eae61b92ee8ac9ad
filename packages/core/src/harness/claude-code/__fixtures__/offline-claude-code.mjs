#!/usr/bin/env node
// OFFLINE stand-in for the Claude Code executable, for tests only. It never reaches a vendor.
//
// Kept ONLY for faults the real Claude Code binary cannot be made to produce: a process
// that dies in the middle of a message (cut.jsonl; the real CLI retries a cut stream and then writes
// an error result, it never exits mid-line) and one that ignores the SDK's interrupt (hang.jsonl; the
// real CLI honours it). Every other Claude Code test runs the real binary, shipped in
// @anthropic-ai/claude-agent-sdk's platform package, against a loopback stand-in model server.
//
// It speaks the stream-json control protocol the Agent SDK speaks to the real `claude` binary
// (@anthropic-ai/claude-agent-sdk sdk.mjs: ProcessTransport + Query): it is started with
// `--output-format stream-json --verbose --input-format stream-json …`, answers the SDK's
// `control_request`s (initialize, interrupt) with `control_response`s, reads the user message from
// stdin, and writes SDK messages to stdout, one JSON object per line. Instead of calling a model it
// replays a recorded scenario (CADRE_OFFLINE_CLAUDE_SCENARIO), in which directive lines ({"$": …})
// stand for what the real CLI does itself:
//   {"$":"init"}                      the system/init line, built from what the SDK sent
//   {"$":"mcp_call", tool_use_id, server, tool, arguments}
//                                     a tools/call to an SDK MCP server through the control channel
//                                     (`mcp_message`), then the user tool_result line built from its answer
//   {"$":"wait_interrupt"}            block until the SDK sends `interrupt`, then end the turn as the CLI does
//   {"$":"hang"}                      block forever, ignoring interrupts (the process must be stopped)
//   {"$":"exit", code, stderr?}       die at once (a stream cut)
//   {"$":"next_turn"}                 separates the turns of a resumed session
// Sessions are kept under $CLAUDE_CONFIG_DIR/offline-sessions so `--resume ID` continues one (and an
// unknown id fails as the real CLI does). With CADRE_OFFLINE_CLAUDE_SEQUENTIAL=1 the scenario's turns
// are played in order by whichever process comes next, resumed or fresh (a host-injected `/compact`
// is one turn; a session started fresh after a rollover continues the scenario). What it received is
// appended to CADRE_OFFLINE_CLAUDE_LOG.
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";

const argv = process.argv.slice(2);
// The SDK writes options as `--name=value` (and a few as `--name value`); read both forms.
const flag = (name) => {
  const joined = argv.find((a) => a.startsWith(`${name}=`));
  if (joined !== undefined) return joined.slice(name.length + 1);
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const has = (name) => argv.includes(name) || argv.some((a) => a.startsWith(`${name}=`));

const logPath = process.env.CADRE_OFFLINE_CLAUDE_LOG;
const log = (entry) => {
  if (logPath) appendFileSync(logPath, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
};
// The switches that would turn Claude Code's own compaction off (the host must never pass them, MC-8).
log({ kind: "argv", argv, compactionOff: ["DISABLE_AUTO_COMPACT", "DISABLE_COMPACT"].filter((name) => process.env[name] !== undefined) });

if (!has("--input-format") || flag("--input-format") !== "stream-json" || flag("--output-format") !== "stream-json") {
  process.stderr.write("offline-claude-code: expected --input-format stream-json --output-format stream-json\n");
  process.exit(2);
}

const configDir = process.env.CLAUDE_CONFIG_DIR;
if (!configDir) {
  process.stderr.write("offline-claude-code: CLAUDE_CONFIG_DIR must point at a scratch directory\n");
  process.exit(2);
}
const sessionsDir = join(configDir, "offline-sessions");
mkdirSync(sessionsDir, { recursive: true });

const scenarioPath = process.env.CADRE_OFFLINE_CLAUDE_SCENARIO;
const turns = [[]];
for (const text of readFileSync(scenarioPath, "utf8").split("\n")) {
  if (!text.trim()) continue;
  const line = JSON.parse(text);
  if (line.$ === "next_turn") turns.push([]);
  else turns.at(-1).push(line);
}

const partials = has("--include-partial-messages");
const resume = flag("--resume");
let sessionId = randomUUID();
let turnIndex = 0;
let lastResultIsError = false;

const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const emit = (message) => {
  if (message.type === "stream_event" && !partials) return;
  if ("session_id" in message) message = { ...message, session_id: sessionId };
  if (message.type === "result") lastResultIsError = message.is_error === true;
  write(message);
};
const stateChanges = process.env.CLAUDE_CODE_SDK_READS_SESSION_STATE === "1";
const state = (s) => stateChanges && write({ type: "system", subtype: "session_state_changed", state: s, session_id: sessionId, uuid: randomUUID() });

// Control channel: requests we send (mcp_message) wait for the SDK's control_response.
let nextRequest = 0;
const pending = new Map();
const request = (body) =>
  new Promise((resolve, reject) => {
    const id = `cli_req_${++nextRequest}`;
    pending.set(id, { resolve, reject });
    write({ type: "control_request", request_id: id, request: body });
  });

let init;
let interrupted = false;
let onInterrupt = () => {};
let started = false;
const mcpReady = new Map();

async function mcp(server, message) {
  const response = await request({ subtype: "mcp_message", server_name: server, message });
  return response.mcp_response;
}

async function ensureMcp(server) {
  if (mcpReady.has(server)) return mcpReady.get(server);
  // With a manifest captured by the SDK the CLI needs no handshake; without one it initializes first.
  let tools = init?.sdkMcpServerManifests?.[server]?.toolsListResult?.tools;
  if (!tools) {
    await mcp(server, { jsonrpc: "2.0", id: `${server}-init`, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "offline-claude-code", version: "0.0.0" } } });
    await mcp(server, { jsonrpc: "2.0", method: "notifications/initialized" });
    tools = (await mcp(server, { jsonrpc: "2.0", id: `${server}-list`, method: "tools/list" })).result.tools;
  }
  log({ kind: "mcp_tools", server, tools, viaManifest: Boolean(init?.sdkMcpServerManifests?.[server]) });
  mcpReady.set(server, tools);
  return tools;
}

async function systemInit() {
  const mcpTools = [];
  for (const server of init?.sdkMcpServers ?? []) for (const t of await ensureMcp(server)) mcpTools.push(`mcp__${server}__${t.name}`);
  return {
    type: "system",
    subtype: "init",
    cwd: process.cwd(),
    session_id: sessionId,
    // The built-ins the real CLI offers with `--tools` (the SDK's `tools` option; bare names, comma
    // separated, empty for none), else its default set; then the MCP tools.
    tools: [...(has("--tools") ? (flag("--tools") ?? "").split(",").filter(Boolean) : ["Task", "Bash", "Glob", "Grep", "Read", "Edit", "Write", "TodoWrite"]), ...mcpTools],
    mcp_servers: (init?.sdkMcpServers ?? []).map((name) => ({ name, status: "connected" })),
    model: flag("--model") ?? "claude-sonnet-4-5-20250929",
    permissionMode: flag("--permission-mode") ?? "default",
    slash_commands: ["compact", "context", "cost"],
    apiKeySource: "none",
    claude_code_version: "0.0.0-offline",
    output_style: "default",
    skills: [],
    plugins: [],
    uuid: randomUUID(),
  };
}

function interruptedTurn() {
  emit({ type: "user", message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] }, parent_tool_use_id: null, session_id: sessionId, uuid: randomUUID() });
  emit({
    type: "result",
    subtype: "error_during_execution",
    is_error: true,
    duration_ms: 1,
    duration_api_ms: 1,
    num_turns: 1,
    stop_reason: null,
    session_id: sessionId,
    total_cost_usd: 0,
    usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
    modelUsage: {},
    permission_denials: [],
    errors: ["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"],
    uuid: randomUUID(),
  });
  state("idle");
}

async function play(prompt) {
  log({ kind: "user", prompt, resume: resume ?? null, sessionId });
  state("running");
  for (const line of turns[turnIndex] ?? []) {
    switch (line.$) {
      case undefined:
        emit(line);
        if (line.type === "result") state("idle");
        break;
      case "init":
        emit(await systemInit());
        break;
      case "mcp_call": {
        const response = await mcp(line.server, {
          jsonrpc: "2.0",
          id: `call-${line.tool_use_id}`,
          method: "tools/call",
          params: { name: line.tool, arguments: line.arguments, _meta: { "claudecode/toolUseId": line.tool_use_id } },
        });
        const result = response.result ?? { content: [{ type: "text", text: response.error?.message ?? "MCP error" }], isError: true };
        log({ kind: "mcp_result", tool: line.tool, result });
        emit({
          type: "user",
          message: { role: "user", content: [{ tool_use_id: line.tool_use_id, type: "tool_result", content: result.content, is_error: result.isError === true }] },
          parent_tool_use_id: null,
          session_id: sessionId,
          uuid: randomUUID(),
          tool_use_result: result.content,
        });
        break;
      }
      case "wait_interrupt":
        if (!interrupted) await new Promise((resolve) => (onInterrupt = resolve));
        interruptedTurn();
        return;
      case "hang":
        await new Promise(() => {});
        return;
      case "exit":
        if (line.stderr) process.stderr.write(line.stderr);
        process.exit(line.code);
        return;
    }
    if (interrupted) {
      interruptedTurn();
      return;
    }
  }
  writeFileSync(join(sessionsDir, `${sessionId}.json`), JSON.stringify({ turns: turnIndex + 1 }));
}

// Sequential scenarios: the next turn is the one after the last turn any process played.
function claimSequentialTurn() {
  const counter = join(sessionsDir, ".played");
  const played = existsSync(counter) ? Number(readFileSync(counter, "utf8")) : 0;
  writeFileSync(counter, String(played + 1));
  return played;
}
const sequential = process.env.CADRE_OFFLINE_CLAUDE_SEQUENTIAL === "1";

function startSession() {
  if (resume === undefined) {
    if (sequential) turnIndex = claimSequentialTurn();
    return true;
  }
  const file = join(sessionsDir, `${resume}.json`);
  if (!existsSync(file)) {
    sessionId = resume;
    emit({ type: "result", subtype: "error_during_execution", is_error: true, duration_ms: 0, duration_api_ms: 0, num_turns: 0, stop_reason: null, session_id: resume, total_cost_usd: 0, usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 }, modelUsage: {}, permission_denials: [], errors: [`No conversation found with session ID: ${resume}`], uuid: randomUUID() });
    return false;
  }
  sessionId = resume;
  turnIndex = sequential ? claimSequentialTurn() : JSON.parse(readFileSync(file, "utf8")).turns;
  return true;
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on("line", (text) => {
  if (!text.trim()) return;
  const message = JSON.parse(text);
  if (message.type === "control_response") {
    const waiter = pending.get(message.response.request_id);
    pending.delete(message.response.request_id);
    if (message.response.subtype === "success") waiter?.resolve(message.response.response);
    else waiter?.reject(new Error(message.response.error));
    return;
  }
  if (message.type === "control_request") {
    const { subtype } = message.request;
    log({ kind: "control_request", subtype, request: message.request });
    if (subtype === "initialize") init = message.request;
    if (subtype === "interrupt") {
      interrupted = true;
      onInterrupt();
    }
    const response = subtype === "initialize" ? { commands: [], agents: [], output_style: "default", available_output_styles: ["default"], models: [], account: {}, pid: process.pid } : {};
    write({ type: "control_response", response: { subtype: "success", request_id: message.request_id, response } });
    return;
  }
  if (message.type === "user" && !started) {
    started = true;
    const content = message.message.content;
    const prompt = typeof content === "string" ? content : content.map((c) => c.text ?? "").join("");
    if (startSession()) void play(prompt).catch((error) => {
      process.stderr.write(`offline-claude-code: ${error.stack ?? error}\n`);
      process.exit(3);
    });
  }
});
// Like `claude -p`: when the host closes stdin the process ends; an error result means exit code 1.
input.on("close", () => process.exit(lastResultIsError ? 1 : 0));
