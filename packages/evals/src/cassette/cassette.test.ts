// The cassette layer around a real Pi loop with real company tools on a real store; the scripted
// offline model stands in for the vendor (recording), then nothing does (replay).
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAgentPrompt, companyTools, loadCompanyState, offlineCeoScript } from "@cadre/company";
import { type AgentEvent, PiAgent, type PiContext, resolveModel, type StreamFn } from "@cadre/core";
import { createScriptedStreamFn } from "@cadre/core/offline";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadScenarios } from "../scenario/load.js";
import { seedScenario } from "../scenario/seed.js";
import { openCassette } from "./cassette.js";
import { normaliseRequest, requestKey } from "./key.js";

let dir: string;
const stores: Store[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-cassettes-"));
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

/** One CEO session of the empty-company scenario over `streamFn`; returns its events and the hires. */
async function ceoSession(streamFn: StreamFn) {
  const [loaded] = await loadScenarios(undefined, ["empty-single-connector"]);
  const store = await openStore({ memory: true });
  stores.push(store);
  const seeded = await seedScenario(store, loaded!.scenario, { profile: "semantic" });
  const state = await loadCompanyState(store, seeded.companyId);
  const prompt = buildAgentPrompt({ state, agent: state.ceo, mode: state.mode, memoryIndex: null });
  const tools = companyTools(store, {
    companyId: seeded.companyId,
    agentId: state.ceo.id,
    via: "tool",
    runId: null,
  });
  const agent = new PiAgent(
    { sessionId: "s1", systemPrompt: prompt.systemPrompt, model: resolveModel(state.ceo.model), tools },
    { streamFn },
  );
  const events: AgentEvent[] = [];
  for await (const e of agent.send(
    "You are the CEO. Your team is currently empty. Review your Team Building Phase operating instructions in the system prompt, then take action.",
  ))
    events.push(e);
  const hires = (await store.listAgents(seeded.companyId))
    .filter((a) => !a.isCeo)
    .map((a) => `${a.name}/${a.department}/${a.connectorId}/${a.model}`);
  return { events, hires, terminal: events.at(-1) };
}

describe("record/replay cassettes", () => {
  it("records every model call of a session, then replays it offline with the vendor unreachable", async () => {
    const vendor = createScriptedStreamFn({ script: offlineCeoScript, seed: 42 });
    const recorder = openCassette({ dir, mode: "record", salt: "empty#0", inner: vendor as StreamFn });
    const recorded = await ceoSession(recorder.streamFn);
    expect(recorded.terminal).toEqual({ type: "terminal", status: "done" });
    expect(recorded.hires.length).toBeGreaterThanOrEqual(3);
    const calls = recorded.events.filter((e) => e.type === "usage").length;
    expect(recorder.stats().recorded).toBe(calls);
    expect((await readdir(dir)).length).toBe(calls);

    const unreachable: StreamFn = () => {
      throw new Error("the vendor must not be called in replay");
    };
    const player = openCassette({ dir, mode: "replay", salt: "empty#0", inner: unreachable });
    const replayed = await ceoSession(player.streamFn);
    // Same answers, so the same tool calls on a fresh store: the same team (new agent ids and all).
    expect(replayed.terminal).toEqual({ type: "terminal", status: "done" });
    expect(replayed.hires).toEqual(recorded.hires);
    expect(player.stats()).toEqual({ recorded: 0, replayed: calls, misses: [], corrupt: [], standin: null });
    const usage = (events: AgentEvent[]) => events.filter((e) => e.type === "usage");
    expect(usage(replayed.events)).toEqual(usage(recorded.events));
  });

  it("a request with no recording fails loudly: the call fails, the miss is reported, nothing falls back to a live model", async () => {
    const recorder = openCassette({
      dir,
      mode: "record",
      salt: "empty#0",
      inner: createScriptedStreamFn({ script: offlineCeoScript, seed: 1 }) as StreamFn,
    });
    await ceoSession(recorder.streamFn);
    const player = openCassette({ dir, mode: "replay", salt: "empty#1" });
    const run = await ceoSession(player.streamFn);
    expect(run.terminal).toMatchObject({
      type: "terminal",
      status: "failed",
      reason: expect.stringMatching(/cassette miss: no recording for request [0-9a-f]{64} \(salt empty#1/),
    });
    expect(run.hires).toEqual([]);
    expect(player.stats().misses).toHaveLength(1);
    expect(player.stats().replayed).toBe(0);
  });

  it("the key ignores what varies between runs of one conversation and keeps what matters", () => {
    const model = { provider: "anthropic", id: "claude-sonnet-4-5-20250929" };
    const context = (callId: string, agentId: string, port: number, system = "S"): PiContext => ({
      systemPrompt: system,
      messages: [
        { role: "user", content: "go", timestamp: 1 },
        {
          role: "assistant",
          content: [{ type: "toolCall", id: callId, name: "hire_agent", arguments: { name: "CTO" } }],
          api: "anthropic-messages",
          provider: "anthropic",
          model: model.id,
          usage: {
            input: 1,
            output: 2,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 3,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "toolUse",
          timestamp: 2,
        },
        {
          role: "toolResult",
          toolCallId: callId,
          toolName: "hire_agent",
          content: [{ type: "text", text: `{"agentId":"${agentId}"} at http://127.0.0.1:${port}` }],
          isError: false,
          timestamp: 3,
        },
      ],
    });
    const key = (c: PiContext, salt = "x") => requestKey(normaliseRequest(model, c, salt));
    expect(key(context("toolu_1", "agt_aaaaaaaaaaaaaaaa", 4001))).toBe(
      key(context("call_zz", "agt_bbbbbbbbbbbbbbbb", 5123)),
    );
    expect(key(context("toolu_1", "agt_aaaaaaaaaaaaaaaa", 4001))).not.toBe(
      key(context("toolu_1", "agt_aaaaaaaaaaaaaaaa", 4001, "S2")),
    );
    expect(key(context("toolu_1", "agt_aaaaaaaaaaaaaaaa", 4001))).not.toBe(
      key(context("toolu_1", "agt_aaaaaaaaaaaaaaaa", 4001), "y"),
    );
  });
});
