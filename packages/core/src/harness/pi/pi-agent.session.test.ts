// A Pi session across session objects (wakes): the session file Pi writes under the host's
// directory, resumed by id and verified before it is opened; a resume that fails heals once from
// the digest; MC-15: nothing is counted twice across the resume; MC-3: the resumed prefix is
// byte-identical, so a vendor's prefix cache still serves it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { StreamFn } from "@mariozechner/pi-agent-core";
import { Type } from "typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defineTool, textOutcome } from "../../agent/tool.js";
import { OFFLINE_MODEL_ID, resolveModel } from "../../models/registry.js";
import { createScriptedStreamFn, type Script } from "../../offline/scripted-model.js";
import { collect } from "../../testing/events.js";
import type { AgentEvent, EventOf } from "../../types.js";
import { PiAgent, type PiAgentOptions } from "./pi-agent.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-pi-sessions-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const hired: string[] = [];
const hire = defineTool({
  name: "hire_agent",
  label: "Hire",
  description: "Hires one agent.",
  parameters: Type.Object({ name: Type.String() }, { additionalProperties: false }),
  validate: (raw) => ({ ok: true, value: raw as { name: string } }),
  execute: async (input) => (hired.push(input.name), textOutcome(`hired ${input.name}`)),
});

// Hires once per prompt that asks for it, then answers.
const script: Script = ({ context }) => {
  const last = context.messages.at(-1);
  if (last?.role === "toolResult") return { content: [{ type: "text", text: "Hired." }] };
  const text = last?.role === "user" ? JSON.stringify(last.content) : "";
  const name = /hire (\w+)/.exec(text)?.[1];
  return name
    ? { content: [{ type: "toolCall", name: "hire_agent", arguments: { name } }] }
    : { content: [{ type: "text", text: `I see ${context.messages.length} message(s).` }] };
};

/** One scripted provider for every session object: a vendor's prefix cache outlives a process. */
const provider = createScriptedStreamFn({ script, seed: 1 }) as StreamFn;

function session(options: Partial<PiAgentOptions> = {}) {
  return new PiAgent(
    {
      sessionId: "wake",
      systemPrompt: "You are the CEO of a test company.",
      model: resolveModel(OFFLINE_MODEL_ID),
      tools: [hire],
    },
    { streamFn: provider, sessionDir: dir, cwd: dir, ...options },
  );
}

const of = <T extends AgentEvent["type"]>(events: AgentEvent[], type: T) =>
  events.filter((e): e is EventOf<T> => e.type === type);

describe("a Pi session resumed from its file", () => {
  it("continues the same session id with its history; the resumed prefix is byte-identical (the vendor's prefix cache serves it); usage is counted once", async () => {
    const first = session();
    const one = await collect(first.send("Please hire Ada."));
    const state = first.sessionState!;
    await first.close();
    expect(state).toMatchObject({ harness: "pi", resumed: false, rolledOver: false });
    expect(state.ref?.file).toMatch(new RegExp(`^${dir}/.*_${state.ref!.id}\\.jsonl$`));
    expect(of(one, "session")).toEqual([
      { type: "session", action: "started", harness: "pi", id: state.ref!.id },
    ]);

    const second = session({
      resume: state.ref!,
      digest: state.digest,
      tokensInWindow: state.tokensInWindow,
    });
    const two = await collect(second.send("What did we do?"));
    expect(of(two, "session")).toEqual([
      { type: "session", action: "resumed", harness: "pi", id: state.ref!.id },
    ]);
    expect(second.sessionState).toMatchObject({ ref: state.ref, resumed: true });
    // The model saw the first wake: the cue, the hire, its result, the answer, then this prompt.
    expect(of(two, "text_end").at(-1)?.text).toBe("I see 5 message(s).");
    const [usage] = of(two, "usage");
    // MC-3: system prompt, tools and history are the same bytes: only the new prompt is uncached.
    expect(usage!.usage.cacheRead).toBeGreaterThan(0);
    expect(usage!.usage.cacheWrite).toBeLessThan(usage!.usage.cacheRead);
    // MC-15: each call's usage once; the first wake's calls are not reported again.
    expect(of(two, "usage")).toHaveLength(1);
    expect(second.usage).toEqual(usage!.usage);
    expect(hired).toEqual(["Ada"]);
    await second.close();
  });

  it("MC-9 a missing file: one self-heal, a fresh session from the digest; Pi's own fallback (a new id) is never taken for the resume", async () => {
    const first = session();
    await collect(first.send("Please hire Bob."));
    const state = first.sessionState!;
    await first.close();
    await rm(state.ref!.file!);
    const sent: string[] = [];
    const healed = session({
      resume: state.ref!,
      digest: state.digest,
      streamFn: (model, context, options) => {
        const m = context.messages[0];
        sent.push(m && m.role === "user" ? JSON.stringify(m.content) : "");
        return provider(model, context, options);
      },
    });
    const events = await collect(healed.send("Carry on."));
    const [heal, started] = of(events, "session");
    expect(heal).toMatchObject({ action: "self-healed", previousId: state.ref!.id });
    expect(heal!.reason).toMatch(/does not exist\); a fresh session starts from the handoff digest, once$/);
    expect(started).toMatchObject({ action: "started" });
    expect(started!.id).not.toBe(state.ref!.id);
    expect(sent[0]).toMatch(/# Handoff[\s\S]*hire_agent succeeded: {\\"name\\":\\"Bob\\"}/);
    expect(events.at(-1)).toMatchObject({ type: "terminal", status: "done" });
    expect(healed.sessionState).toMatchObject({ resumed: false, selfHealed: heal!.reason });
    await healed.close();
  });

  it("MC-9 a file holding another session is not resumed: healed once", async () => {
    const a = session();
    await collect(a.send("hello"));
    const stateA = a.sessionState!;
    await a.close();
    const b = session({ resume: { id: "01-not-this-one", file: stateA.ref!.file! } });
    const events = await collect(b.send("hello again"));
    expect(of(events, "session")[0]).toMatchObject({
      action: "self-healed",
      reason: expect.stringContaining(`holds session ${stateA.ref!.id}, not 01-not-this-one`),
    });
    await b.close();
  });

  it("a session Pi has not written yet (nothing was sent) leaves nothing to resume, and the handoff it started from stays pending", async () => {
    await writeFile(join(dir, "placeholder"), "");
    const failing = session({
      bootstrap: { handoff: "# Handoff\n- hire_agent succeeded: {}", items: [], reason: "MC-9: test" },
      // MC-12 refuses the request before anything is sent: Pi writes no file without a reply.
      byteBudget: { requestBytes: 10 },
    });
    const events = await collect(failing.send("hi"));
    expect(events.at(-1)).toMatchObject({ type: "terminal", status: "failed" });
    expect(failing.sessionState).toMatchObject({
      ref: undefined,
      pendingBootstrap: { reason: "MC-9: test" },
    });
    await failing.close();
  });
});
