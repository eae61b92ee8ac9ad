// OpenTelemetry GenAI traces against a real OTLP/HTTP receiver on loopback: off by default; when
// on, one span tree per run (invoke_agent → chat per model call, execute_tool per tool call) with
// the GenAI attributes, the company, agent, task and cause, and the usage the run records — and no
// prompt or completion text unless asked for.
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { wakeAgent } from "../wake.js";
import { flushTracing, startTracing, stopTracing, tracingFromEnv } from "./otel.js";
import { type OtlpReceiver, startOtlpReceiver } from "./otlp-receiver.js";

let store: Store;
let receiver: OtlpReceiver;

beforeEach(async () => {
  store = await openStore({ memory: true });
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await stopTracing();
  await store.close();
  await receiver.close();
});

async function wakeCeo() {
  const company = await createCompany(store, { name: "Acme Robotics", goal: "Build warehouse robots." });
  const ceo = (await loadCompanyState(store, company.id)).ceo;
  const result = await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 7 });
  return { company, ceo, result };
}

describe("OpenTelemetry GenAI traces", () => {
  it("is off unless an endpoint is configured", async () => {
    expect(tracingFromEnv({})).toBeUndefined();
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url })).toMatchObject({
      endpoint: receiver.url,
      captureContent: false,
    });
    await wakeCeo();
    await flushTracing();
    expect(receiver.spans).toEqual([]);
  });

  it("exports one span tree per run with the GenAI attributes and the run's usage", async () => {
    await startTracing({ endpoint: receiver.url });
    const { company, ceo, result } = await wakeCeo();
    await flushTracing();
    const spans = receiver.spans;
    expect(receiver.contentTypes.every((t) => t.startsWith("application/json"))).toBe(true);
    const roots = spans.filter((s) => s.parentSpanId === null);
    expect(roots).toHaveLength(1);
    const root = roots[0]!;
    expect(root.name).toBe(`invoke_agent ${ceo.name}`);
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.id": ceo.id,
      "gen_ai.agent.name": ceo.name,
      "gen_ai.provider.name": "offline",
      "gen_ai.request.model": ceo.model,
      "cadre.company.id": company.id,
      "cadre.run.id": result.run.id,
      "cadre.wake.trigger": "start_team_building",
      "cadre.run.status": "done",
    });
    expect(root.resource["service.name"]).toBe("cadre");
    // Every other span is a child of the run's, in the run's trace.
    const children = spans.filter((s) => s !== root);
    expect(children.every((s) => s.traceId === root.traceId && s.parentSpanId === root.spanId)).toBe(true);
    const chats = children.filter((s) => s.attributes["gen_ai.operation.name"] === "chat");
    const tools = children.filter((s) => s.attributes["gen_ai.operation.name"] === "execute_tool");
    expect(chats.length).toBeGreaterThan(0);
    for (const c of chats) {
      expect(c.name).toBe(`chat ${ceo.model}`);
      expect(c.attributes["gen_ai.request.model"]).toBe(ceo.model);
      expect(typeof c.attributes["gen_ai.response.model"]).toBe("string");
    }
    // A tool span per tool call the run recorded.
    const events = await store.listRunEvents(result.run.id);
    const toolUses = events
      .filter((e) => e.type === "tool_use")
      .map((e) => (e.data as { name: string }).name);
    expect(tools.map((t) => t.attributes["gen_ai.tool.name"]).sort()).toEqual([...toolUses].sort());
    expect(toolUses.length).toBeGreaterThan(0);
    // The usage the run records (what `cadre usage` reports), call by call.
    const sum = (k: string) => chats.reduce((n, c) => n + Number(c.attributes[k] ?? 0), 0);
    const run = await store.getRun(result.run.id);
    const cacheRead = sum("gen_ai.usage.cache_read.input_tokens");
    const cacheWrite = sum("gen_ai.usage.cache_creation.input_tokens");
    expect({
      input: sum("gen_ai.usage.input_tokens") - cacheRead - cacheWrite,
      output: sum("gen_ai.usage.output_tokens"),
      cacheRead,
      cacheWrite,
    }).toEqual(run!.usage);
    expect(run!.usage.output).toBeGreaterThan(0);
    // No prompt or completion text by default.
    expect(JSON.stringify(spans)).not.toContain("gen_ai.input.messages");
    expect(JSON.stringify(spans)).not.toContain("gen_ai.output.messages");
  });

  it("puts prompt and completion text on the spans only when asked to", async () => {
    await startTracing({ endpoint: receiver.url, captureContent: true });
    const { result } = await wakeCeo();
    await flushTracing();
    const root = receiver.spans.find((s) => s.parentSpanId === null)!;
    expect(String(root.attributes["gen_ai.input.messages"])).toContain(
      JSON.stringify(result.cue).slice(1, 30),
    );
  });

  it("makes a tree per run: two runs, two traces", async () => {
    await startTracing({ endpoint: receiver.url });
    const { ceo } = await wakeCeo();
    await wakeAgent({ store, agentId: ceo.id, seed: 8 });
    await flushTracing();
    const roots = receiver.spans.filter((s) => s.parentSpanId === null);
    expect(roots).toHaveLength(2);
    expect(new Set(roots.map((r) => r.traceId)).size).toBe(2);
  });
});
