// wrapStreamFn (evals' cassettes): every Pi-routed connector's model call goes through the wrapper
// — the scripted model offline, pi-ai's streamSimple on a vendor — and a harness that calls the
// model itself refuses it instead of silently running unwrapped.
import type { AgentEvent, StreamFn } from "@cadre/core";
import { createScriptedStreamFn } from "@cadre/core/offline";
import { streamSimple } from "@mariozechner/pi-ai";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "./companies.js";
import { ASSUMED_PROBES } from "./connectors/probe-cache.js";
import { offlineCeoScript } from "./profiles/offline-ceo-script.js";
import { buildAgentPrompt } from "./prompts/build.js";
import { MODE_DOCUMENTS } from "./profiles/semantic/mode-documents.js";
import { createSession } from "./session.js";
import { loadCompanyState } from "./state.js";
import { wakeAgent } from "./wake.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function company() {
  const row = await createCompany(store, {
    name: "Acme",
    goal: "Sell robots to farms",
    connectors: [{ kind: "anthropic" }, { kind: "claude-code" }],
  });
  return loadCompanyState(store, row.id);
}

async function drain(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe("wrapStreamFn", () => {
  it("offline: a wake's every model call passes through the wrapper, around the scripted model", async () => {
    const state = await company();
    const inners: StreamFn[] = [];
    let calls = 0;
    const result = await wakeAgent({
      store,
      agentId: state.ceo.id,
      seed: 1,
      env: {},
      wrapStreamFn: (inner) => {
        inners.push(inner);
        return (model, context, options) => (calls++, inner(model, context, options));
      },
    });
    expect(result.terminal).toBe("done");
    expect(inners).toHaveLength(1);
    expect(inners[0]).not.toBe(streamSimple);
    const modelCalls = (await store.listRunEvents(result.run.id)).filter((e) => e.type === "usage").length;
    expect(calls).toBe(modelCalls);
    expect(calls).toBeGreaterThanOrEqual(4);
  });

  it("anthropic: the wrapper gets pi-ai's streamSimple, and what it returns answers instead (no network)", async () => {
    const state = await company();
    const connector = state.connectors.find((c) => c.kind === "anthropic")!;
    let wrapped: StreamFn | undefined;
    const prompt = buildAgentPrompt({
      state,
      agent: state.ceo,
      mode: state.mode,
      memoryIndex: null,
      env: { ANTHROPIC_API_KEY: "k" },
      // As evals run it: the endpoint is never asked (its answers come from the wrapper).
      probes: ASSUMED_PROBES,
    });
    const session = await createSession({
      sessionId: "s",
      agent: { ...state.ceo, connectorId: connector.id, model: "claude-sonnet-4-5-20250929" },
      connector,
      systemPrompt: prompt.systemPrompt,
      tools: [],
      seed: 1,
      env: { ANTHROPIC_API_KEY: "k" },
      probes: ASSUMED_PROBES,
      wrapStreamFn: (inner) => (
        (wrapped = inner),
        createScriptedStreamFn({ script: offlineCeoScript, seed: 1 }) as StreamFn
      ),
    });
    const events = await drain(session.send("Begin."));
    expect(wrapped).toBe(streamSimple);
    expect(events.at(-1)).toEqual({ type: "terminal", status: "done" });
  });

  it("claude-code: refused with the reason, not ignored", async () => {
    const state = await company();
    const connector = state.connectors.find((c) => c.kind === "claude-code")!;
    await expect(
      createSession({
        sessionId: "s",
        agent: { ...state.ceo, model: "claude-sonnet-4-5-20250929" },
        connector,
        systemPrompt: "p",
        tools: [],
        seed: 1,
        env: {},
        wrapStreamFn: (inner) => inner,
      }),
    ).rejects.toThrow(
      /cassettes record Pi-routed connectors only \(offline, anthropic, openai, openai-compatible\); CEO runs on "claude-code" \(claude-code\), whose harness calls the model itself/,
    );
  });
});

describe("buildAgentPrompt's evals-only inputs", () => {
  it("readiness follows the given env; a mode-document edit changes the prompt, never the locked text", async () => {
    const state = await company();
    const locked = MODE_DOCUMENTS["team-building"];
    const withKey = buildAgentPrompt({
      state,
      agent: state.ceo,
      mode: state.mode,
      memoryIndex: null,
      env: { ANTHROPIC_API_KEY: "k" },
      probes: ASSUMED_PROBES,
    });
    const without = buildAgentPrompt({
      state,
      agent: state.ceo,
      mode: state.mode,
      memoryIndex: null,
      env: {},
      probes: ASSUMED_PROBES,
    });
    expect(withKey.systemPrompt).toMatch(/- anthropic: .*\. Ready\. Models:/);
    expect(without.systemPrompt).toMatch(/- anthropic: .*\. Not ready \(/);
    const edited = buildAgentPrompt({
      state,
      agent: state.ceo,
      mode: state.mode,
      memoryIndex: null,
      modeDocument: (mode, doc) => `${doc}\n(edited in ${mode})`,
    });
    expect(edited.systemPrompt).toContain("(edited in team-building)");
    expect(MODE_DOCUMENTS["team-building"]).toBe(locked);
  });
});
