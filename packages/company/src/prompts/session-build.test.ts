import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AgentEvent, type ModelCallPrefix, OFFLINE_MODEL_ID } from "@cadre/core";
import { type Script, type ScriptRequest, serialiseRequest } from "@cadre/core/offline";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { createSession } from "../session.js";
import { type CompanyState, loadCompanyState } from "../state.js";
import { hireAgent } from "../team/hire.js";
import { companyTools } from "../tools/registry.js";
import { wakeAgent } from "../wake.js";
import { buildAgentPrompt, buildSession, type SessionBuild } from "./build.js";

let store: Store;
let dir: string;
beforeEach(async () => {
  store = await openStore({ memory: true });
  dir = await mkdtemp(join(tmpdir(), "cadre-session-build-"));
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function collect(stream: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

const say: Script = () => ({ content: [{ type: "text", text: "Noted." }] });

async function setup(goal = "Build warehouse robots.") {
  const company = await createCompany(store, { name: "Acme", goal });
  const state = await loadCompanyState(store, company.id);
  const actor = { companyId: company.id, agentId: state.ceo.id, via: "tool" as const, runId: null };
  return { company, state, actor };
}

/** The CEO's offline session on a build; `see` observes every request, and each model call's prefix is kept. */
async function openSession(
  sessionId: string,
  state: CompanyState,
  build: SessionBuild,
  see: (r: ScriptRequest) => void,
) {
  const prefixes: ModelCallPrefix[] = [];
  const session = await createSession({
    sessionId,
    agent: state.ceo,
    connector: state.connectors[0]!,
    systemPrompt: build.prompt.systemPrompt,
    segments: build.prompt.segments,
    onModelCall: (p) => prefixes.push(p),
    tools: build.tools,
    seed: 1,
    script: (r) => (see(r), say(r)),
  });
  return { session, prefixes };
}

describe("MC-3 contacts segment", () => {
  it("is evaluated once per build, with tool registration, and stays constant for the session while the company changes", async () => {
    const { company, state, actor } = await setup();
    const build = buildSession({
      state,
      agent: state.ceo,
      mode: state.mode,
      memoryIndex: null,
      tools: companyTools(store, actor),
    });
    expect(Object.isFrozen(build.tools)).toBe(true);
    const contacts = build.prompt.segments.find((s) => s.id === "contacts");
    expect(contacts?.text).toBe("## Company directory\nYou have no colleagues yet.");
    // Same snapshot, same bytes.
    expect(buildAgentPrompt({ state, agent: state.ceo, mode: state.mode, memoryIndex: null })).toEqual(
      build.prompt,
    );

    const requests: string[][] = [];
    const { session, prefixes } = await openSession("contacts", state, build, (r) =>
      requests.push(serialiseRequest(r.context)),
    );
    await collect(session.send("first"));
    await hireAgent(store, actor, {
      name: "CTO",
      role: "Chief Technology Officer",
      description: "Leads engineering.",
      connectorId: "offline",
      model: OFFLINE_MODEL_ID,
    });
    await collect(session.send("second"));
    expect(prefixes.map((p) => p.segmentHashes.contacts)).toEqual([contacts!.hash, contacts!.hash]);
    expect(requests[1]![1]).toBe(requests[0]![1]);
    // The next build sees the hire: contacts change between sessions only.
    const after = await loadCompanyState(store, company.id);
    expect(
      buildAgentPrompt({ state: after, agent: after.ceo, mode: after.mode, memoryIndex: null }).segments.find(
        (s) => s.id === "contacts",
      )?.text,
    ).toContain("- CTO: Chief Technology Officer");
  });

  it("is absent for a remote session", async () => {
    const { state } = await setup();
    const remote = buildAgentPrompt({
      state,
      agent: state.ceo,
      mode: state.mode,
      memoryIndex: null,
      remote: true,
    });
    expect(remote.segments.map((s) => s.id)).toEqual([
      "harness-preset",
      "product-append",
      "memory-rules",
      "host-runtime",
      "memory-index",
    ]);
    expect(remote.systemPrompt).not.toContain("## Company directory");
  });
});

describe("MC-3 MEMORY.md snapshot", () => {
  it("is taken at session start and survives a rewind unchanged, even when the file changed on disk", async () => {
    const { state, actor } = await setup();
    const memoryPath = join(dir, "agents", state.ceo.id, "MEMORY.md");
    await mkdir(join(dir, "agents", state.ceo.id), { recursive: true });
    await writeFile(memoryPath, "- plan.md: the first plan\n");
    const build = buildSession({
      state,
      agent: state.ceo,
      mode: state.mode,
      memoryIndex: await readFile(memoryPath, "utf8"),
      tools: companyTools(store, actor),
    });
    const snapshot = build.prompt.segments.find((s) => s.id === "memory-index")!;
    const systems: string[] = [];
    const { session, prefixes } = await openSession("memory", state, build, (r) =>
      systems.push(r.context.systemPrompt ?? ""),
    );
    await collect(session.send("one"));
    await collect(session.send("two"));
    await writeFile(
      memoryPath,
      "- plan.md: the first plan\n- secret.md: written after the session started\n",
    );
    session.rewind(2);
    const events = await collect(session.send("two, again"));
    expect(events.at(-1)).toEqual({ type: "terminal", status: "done" });
    expect(systems).toHaveLength(3);
    expect(new Set(systems).size).toBe(1);
    expect(systems[2]).toContain("- plan.md: the first plan");
    expect(systems[2]).not.toContain("secret.md");
    expect(prefixes.map((p) => p.segmentHashes["memory-index"])).toEqual([
      snapshot.hash,
      snapshot.hash,
      snapshot.hash,
    ]);
  });

  it("a wake reads it at session start; notes and a goal that mention dates and times do not fail the wake", async () => {
    const { state } = await setup("Ship the pilot by 2026-03-01 09:00 to three customers.");
    await mkdir(join(dir, "agents", state.ceo.id), { recursive: true });
    await writeFile(
      join(dir, "agents", state.ceo.id, "MEMORY.md"),
      "- 2026-01-05 10:30 call with Acme logistics\n",
    );
    const systems: string[] = [];
    const result = await wakeAgent({
      store,
      agentId: state.ceo.id,
      dataDir: dir,
      seed: 1,
      script: (r) => (systems.push(r.context.systemPrompt ?? ""), say(r)),
    });
    expect(result.terminal).toBe("done");
    expect(systems[0]).toContain("## MEMORY.md\n- 2026-01-05 10:30 call with Acme logistics");
    expect(systems[0]).toContain("Goal: Ship the pilot by 2026-03-01 09:00");
  });
});
