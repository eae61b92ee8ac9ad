#!/usr/bin/env node
// Records what an AgentSession of the Pi coding agent's SDK (@mariozechner/pi-coding-agent 0.73.1)
// delivers to `session.subscribe`, as JSON lines, for the Pi translator's fixtures. The model is a
// tiny offline stream function (no network): it answers the agent's calls, and Pi's own compaction
// summary requests, as each scenario says. Run from the repo root:
//   node packages/core/src/harness/pi/__fixtures__/record-session-events.mjs OUT_DIR
// Scenarios (one file each): session-compaction (threshold compaction, a summary written by the
// model), session-compaction-failures (an empty summary, then a 529 on the summary call),
// session-overflow (a provider overflow, Pi's compaction and its continue, then a second overflow
// Pi refuses to recover), session-auto-retry (Pi's auto-retry of a 529, then its giving up).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createAssistantMessageEventStream, registerApiProvider } from "@mariozechner/pi-ai";
import { AuthStorage, createAgentSession, createExtensionRuntime, createSyntheticSourceInfo, ModelRegistry, SessionManager, SettingsManager } from "@mariozechner/pi-coding-agent";

const out = process.argv[2] ?? ".";
mkdirSync(out, { recursive: true });
const API = "fixture-offline";
const model = { id: "fixture-model", name: "fixture", api: API, provider: "fixture", baseUrl: "offline://", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 2000, maxTokens: 256 };
const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
let plan = [];
const isSummary = (ctx) => (ctx.systemPrompt ?? "").startsWith("You are a context summarization assistant");
registerApiProvider({ api: API, stream: (m, c, o) => reply(m, c, o), streamSimple: (m, c, o) => reply(m, c, o) }, "fixture");
function reply(m, ctx) {
  const s = createAssistantMessageEventStream();
  const step = plan.shift() ?? { text: "ok" };
  const kind = isSummary(ctx) ? (step.summary !== undefined ? step : { summary: "## Goal\nRun the company.\n## Progress\n- hired Ada" }) : step;
  const msg = { role: "assistant", content: [], api: m.api, provider: m.provider, model: m.id, usage: { ...zero, input: kind.tokens ?? 100, totalTokens: kind.tokens ?? 100 }, stopReason: "stop", timestamp: Date.now() };
  queueMicrotask(() => {
    if (kind.error) {
      const failed = { ...msg, usage: zero, stopReason: "error", errorMessage: kind.error };
      s.push({ type: "error", reason: "error", error: failed });
      s.end(failed);
      return;
    }
    const text = kind.summary ?? kind.text;
    const done = { ...msg, content: [{ type: "text", text }] };
    s.push({ type: "start", partial: { ...msg } });
    s.push({ type: "text_start", contentIndex: 0, partial: done });
    s.push({ type: "text_delta", contentIndex: 0, delta: text, partial: done });
    s.push({ type: "text_end", contentIndex: 0, content: text, partial: done });
    s.push({ type: "done", reason: "stop", message: done });
    s.end(done);
  });
  return s;
}
const ext = { path: "<fixture>", resolvedPath: "<fixture>", sourceInfo: createSyntheticSourceInfo("<fixture>", { source: "sdk" }), handlers: new Map([["before_agent_start", [() => ({ systemPrompt: "You are a test agent." })]]]), tools: new Map(), messageRenderers: new Map(), commands: new Map(), flags: new Map(), shortcuts: new Map() };
const loader = { getExtensions: () => ({ extensions: [ext], errors: [], runtime: createExtensionRuntime() }), getSkills: () => ({ skills: [], diagnostics: [] }), getPrompts: () => ({ prompts: [], diagnostics: [] }), getThemes: () => ({ themes: [], diagnostics: [] }), getAgentsFiles: () => ({ agentsFiles: [] }), getSystemPrompt: () => "You are a test agent.", getAppendSystemPrompt: () => [], extendResources() {}, async reload() {} };

async function record(name, retry, steps) {
  const auth = AuthStorage.inMemory();
  auth.setRuntimeApiKey("fixture", "k");
  const { session } = await createAgentSession({ cwd: "/", agentDir: "/", authStorage: auth, modelRegistry: ModelRegistry.inMemory(auth), settingsManager: SettingsManager.inMemory({ compaction: { enabled: true, reserveTokens: 600, keepRecentTokens: 20 }, retry: { enabled: retry, maxRetries: 1, baseDelayMs: 1 } }), resourceLoader: loader, sessionManager: SessionManager.inMemory("/"), model, thinkingLevel: "off", tools: [], customTools: [] });
  const lines = [];
  session.subscribe((e) => lines.push(JSON.stringify(e)));
  for (const { prompt, calls } of steps) {
    plan = [...calls];
    await session.prompt(prompt, { expandPromptTemplates: false });
    await new Promise((r) => setTimeout(r, 250)); // Pi's compaction and its 100 ms continue run after prompt() resolves
  }
  session.dispose();
  writeFileSync(join(out, `${name}.jsonl`), `${lines.join("\n")}\n`);
}

const overflow = `400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 3873 tokens > 2000 maximum"}}`;
const overloaded = `529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`;
await record("session-compaction", false, [
  { prompt: "First question", calls: [{ text: "A first answer.", tokens: 300 }] },
  { prompt: "Second question", calls: [{ text: "A long answer.", tokens: 1600 }, { summary: "## Goal\nAnswer the questions.\n## Progress\n- answered two" }] },
]);
await record("session-compaction-failures", false, [
  { prompt: "First question", calls: [{ text: "A first answer.", tokens: 300 }] },
  { prompt: "Second question", calls: [{ text: "A long answer.", tokens: 1600 }, { summary: "" }] },
  { prompt: "Third question", calls: [{ text: "Another long answer.", tokens: 1700 }, { error: overloaded, summary: "" }] },
]);
await record("session-overflow", false, [
  { prompt: "First question", calls: [{ text: "A first answer.", tokens: 300 }] },
  { prompt: "A question too large", calls: [{ error: overflow }, { summary: "## Goal\nAnswer.\n## Progress\n- one answer" }, { error: overflow }] },
]);
await record("session-auto-retry", true, [
  { prompt: "First question", calls: [{ error: overloaded }, { text: "Answered after a retry.", tokens: 300 }] },
  { prompt: "Second question", calls: [{ error: overloaded }, { error: overloaded }] },
]);
