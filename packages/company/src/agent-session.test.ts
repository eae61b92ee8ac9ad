// An agent's session across wakes, through the real wake runner, store, Pi SDK session files and
// offline CEO: a later wake resumes it (MC-8: Pi's reserve frozen again at the resume), MC-3's
// per-call update when the company changed, a failed resume healed once, the operator's reset,
// and MC-13's switch between wakes inside the session lock.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AgentEvent,
  ConflictStateError,
  contextReportOf,
  OFFLINE_MODEL_ID,
  OFFLINE_SMALL_MODEL_ID,
  type PiContext,
  type StreamFn,
} from "@cadre/core";
import { openStore, type ProcessOwner, type Store, type StoreQueries } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lockSession, resetAgentSession } from "./agent-session.js";
import { setAgentModel } from "./agent-model.js";
import { decideApproval } from "./approvals/decide.js";
import { createCompany } from "./companies.js";
import { SEGMENT_UPDATE_PREAMBLE } from "./prompts/session-update.js";
import { thisProcess } from "./recovery/processes.js";
import { describeRecovery, INTERRUPTED_REASON, recoverLostRuns } from "./recovery/recover.js";
import { loadCompanyState } from "./state.js";
import { wakeAgent } from "./wake.js";

let store: Store;
let dataDir: string;
beforeEach(async () => {
  store = await openStore({ memory: true });
  dataDir = await mkdtemp(join(tmpdir(), "cadre-sessions-"));
});
afterEach(async () => {
  await store.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** A company whose CEO runs on an offline connector with both offline models (128k and 32k windows). */
async function company() {
  const created = await createCompany(store, {
    name: "Acme Robotics",
    goal: "Build warehouse robots and sell them to logistics companies.",
    connectors: [
      { id: "rehearsal", kind: "offline", enabledModels: [OFFLINE_MODEL_ID, OFFLINE_SMALL_MODEL_ID] },
    ],
    ceoConnectorId: "rehearsal",
  });
  return (await loadCompanyState(store, created.id)).ceo;
}

interface Request {
  system: string;
  first: string;
  last: string;
}

/** Records what each agent call sent (Pi's summary requests pass by). */
function recorder(requests: Request[]): (inner: StreamFn) => StreamFn {
  const text = (m: PiContext["messages"][number] | undefined) =>
    !m || m.role === "assistant"
      ? ""
      : typeof m.content === "string"
        ? m.content
        : m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return (inner) => (model, context, options) => {
    if (!(context.systemPrompt ?? "").startsWith("You are a context summarization assistant"))
      requests.push({
        system: context.systemPrompt ?? "",
        first: text(context.messages[0]),
        last: text(context.messages.filter((m) => m.role === "user").at(-1)),
      });
    return inner(model, context, options);
  };
}

async function wake(agentId: string, extra: Partial<Parameters<typeof wakeAgent>[0]> = {}) {
  const result = await wakeAgent({ store, agentId, dataDir, seed: 7, ...extra });
  const events = (await store.listRunEvents(result.run.id)).map((r) => r.data as AgentEvent);
  return { result, events, report: contextReportOf(events) };
}

function sessionFiles(agentId: string): string[] {
  const dir = join(dataDir, "agents", agentId, "sessions");
  return existsSync(dir) ? readdirSync(dir) : [];
}

describe("an agent's session lives across wakes", () => {
  it("MC-8 the CEO's next wake resumes the same Pi session file: the history continues, the system prompt is the session's own, Pi's reserve is frozen again at the resume", async () => {
    const ceo = await company();
    const requests: Request[] = [];
    const first = await wake(ceo.id, { trigger: "start_team_building", wrapStreamFn: recorder(requests) });
    expect(first.result.session).toMatchObject({ harness: "pi", resumed: false, rolledOver: false });
    const id = first.result.session.id!;
    expect(sessionFiles(ceo.id)).toEqual([expect.stringContaining(id)]);
    expect(await store.getAgentSession(ceo.id)).toMatchObject({
      harness: "pi",
      sessionId: id,
      reserveTokens: 12_800,
      runningRunId: null,
      lastRunId: first.result.run.id,
    });
    const calls = requests.length;
    const second = await wake(ceo.id, { wrapStreamFn: recorder(requests) });
    expect(second.result.session).toEqual({ harness: "pi", id, resumed: true, rolledOver: false });
    expect(second.report.sessions).toEqual([{ action: "resumed", harness: "pi", id }]);
    expect(second.report.snapshot).toMatchObject({
      sessionId: id,
      reserveTokens: 12_800,
      compactionOwner: "pi",
    });
    // The resumed call carries the first wake's history, under the very same system prompt (MC-3).
    const resumed = requests[calls]!;
    expect(resumed.first).toBe(first.result.cue);
    expect(resumed.system).toBe(requests[0]!.system);
    expect(sessionFiles(ceo.id)).toHaveLength(1);
  });

  it("MC-3 a mode change between wakes: the session keeps its system prompt; the changed segments come in the per-call part, and the CEO acts on the new mode", async () => {
    const ceo = await company();
    const requests: Request[] = [];
    await wake(ceo.id, { trigger: "start_team_building", wrapStreamFn: recorder(requests) });
    const [strategy] = await store.listApprovals(ceo.companyId);
    // Sent back: the revising CEO keeps its tool list (hire_agent, file_approval), so its session continues.
    await decideApproval(store, strategy!.id, "revise", "Say more about sales");
    const calls = requests.length;
    const second = await wake(ceo.id, { wrapStreamFn: recorder(requests) });
    expect(second.result.session.resumed).toBe(true);
    expect(second.result.modeBefore).toBe("revising");
    const sent = requests[calls]!;
    expect(sent.system).toBe(requests[0]!.system); // still the team-building session's own prompt
    expect(sent.system).toContain("Current phase: Team Building Phase");
    // The per-call part: the replaced sections (the new mode and decision, the new directory), then the cue.
    expect(sent.last.startsWith(SEGMENT_UPDATE_PREAMBLE)).toBe(true);
    expect(sent.last).toContain("Current phase: Revision Phase");
    expect(sent.last).toContain("Say more about sales");
    expect(sent.last).toContain("## Company directory");
    // Then the cue, then the briefing of what changed (data, per call too).
    expect(sent.last.indexOf(second.result.cue)).toBeGreaterThan(sent.last.indexOf("## Company directory"));
    expect(sent.last).toContain("- The operator decided on your strategy.");
    const approvals = await store.listApprovals(ceo.companyId);
    expect(approvals.map((a) => a.title)).toContain("Revised strategy for Acme Robotics");
  });

  it("MC-3 the approved company offers the CEO its task tools: another tool list, so the operating wake starts fresh from the team-building session's handoff and delegates", async () => {
    const ceo = await company();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    const [strategy] = await store.listApprovals(ceo.companyId);
    await decideApproval(store, strategy!.id, "approve", "Ship it");
    const requests: Request[] = [];
    const second = await wake(ceo.id, { wrapStreamFn: recorder(requests) });
    expect(second.result.modeBefore).toBe("operating");
    expect(second.result.session.resumed).toBe(false);
    // Began from the handoff of the team-building session (its digest carries the hires and the filing).
    expect(second.result.session.rolledOver).toBe(true);
    expect(second.result.session.id).not.toBe(first.result.session.id);
    expect(await store.getAgentSession(ceo.id)).toMatchObject({ previousSessionId: first.result.session.id });
    expect(requests[0]!.system).toContain("Current phase: Operating Phase");
    expect(requests[0]!.system).not.toBe("");
    expect(requests[0]!.last).not.toContain(SEGMENT_UPDATE_PREAMBLE);
    const leads = (await store.listAgents(ceo.companyId)).filter((a) => !a.isCeo);
    const tasks = await store.listTasks(ceo.companyId);
    expect(tasks.map((t) => t.assigneeAgentId).sort()).toEqual(leads.map((a) => a.id).sort());
  });

  it("MC-3 a changed tool list cannot continue a session: the legacy profile's wake starts fresh from the handoff", async () => {
    const ceo = await company();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    // The legacy profile offers a bash tool instead of the company tools: another tool list.
    const row = await store.getAgentSession(ceo.id);
    const { planSession } = await import("./agent-session.js");
    const plan = planSession({
      row,
      connector: { id: "rehearsal", kind: "offline" },
      model: (await import("@cadre/core")).resolveModel(OFFLINE_MODEL_ID),
      built: { systemPrompt: "x", segments: [] },
      tools: [{ name: "bash", description: "Runs a command.", parameters: {} }],
    });
    expect(plan.fresh).toBe("the tool list changed (tools never change inside a session)");
    expect(plan.continuation.resume).toBeUndefined();
    expect(plan.continuation.bootstrap).toMatchObject({
      fromSession: first.result.session.id,
      reason: expect.stringMatching(/^the tool list changed/),
    });
    expect(plan.continuation.bootstrap!.handoff).toMatch(/^# Handoff\n/);
  });

  it("MC-9 a session file that went missing: the next wake heals once from the handoff digest, is recorded, and the wake after it resumes the healed session", async () => {
    const ceo = await company();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    const hires = (await store.listAgents(ceo.companyId)).filter((a) => !a.isCeo).length;
    for (const f of sessionFiles(ceo.id)) await rm(join(dataDir, "agents", ceo.id, "sessions", f));
    const requests: Request[] = [];
    const healed = await wake(ceo.id, { wrapStreamFn: recorder(requests) });
    expect(healed.result.terminal).toBe("done");
    expect(healed.result.session.resumed).toBe(false);
    expect(healed.result.session.id).not.toBe(first.result.session.id);
    expect(healed.report.sessions).toEqual([
      {
        action: "self-healed",
        harness: "pi",
        previousId: first.result.session.id,
        reason: expect.stringMatching(
          /^pi session .+ could not be resumed \(.+ does not exist\); a fresh session starts from the handoff digest, once$/,
        ),
      },
      { action: "started", harness: "pi", id: healed.result.session.id },
    ]);
    // The fresh session starts from the digest: the hires already made are decisions, not redone.
    expect(requests[0]!.first).toMatch(/^# Handoff\n[\s\S]*- hire_agent succeeded:/);
    expect((await store.listAgents(ceo.companyId)).filter((a) => !a.isCeo)).toHaveLength(hires);
    const after = await wake(ceo.id);
    expect(after.result.session).toMatchObject({ id: healed.result.session.id, resumed: true });
  });

  it("MC-9 a damaged session file is set aside (Pi would overwrite it) and healed once, never resumed", async () => {
    const ceo = await company();
    await wake(ceo.id, { trigger: "start_team_building" });
    const [file] = sessionFiles(ceo.id);
    await writeFile(join(dataDir, "agents", ceo.id, "sessions", file!), "not a session\n");
    const healed = await wake(ceo.id);
    expect(healed.report.sessions[0]).toMatchObject({
      action: "self-healed",
      reason: expect.stringMatching(/has no valid session header; kept as .*\.damaged-\d+\)/),
    });
    expect(sessionFiles(ceo.id).some((f) => f.includes(".damaged-"))).toBe(true);
    expect(healed.result.terminal).toBe("done");
  });

  it("the operator's reset: the next wake starts a fresh session with no handoff; refused while a run holds the session", async () => {
    const ceo = await company();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    // A run of the agent that is still running (another process) holds the session.
    const held = await store.insertRun({
      id: "run_elsewhere",
      companyId: ceo.companyId,
      agentId: ceo.id,
      trigger: "routine",
      mode: "awaiting-approval",
      profile: "semantic",
      cue: "x",
    });
    const row = (await store.getAgentSession(ceo.id))!;
    const { createdAt: _c, lastUsedAt: _l, ...fields } = row;
    await store.putAgentSession({ ...fields, runningRunId: held.id });
    await expect(resetAgentSession(store, ceo.id)).rejects.toThrow(ConflictStateError);
    await expect(wake(ceo.id)).rejects.toThrow(
      /session is in use by run run_elsewhere: this wake waits until it ends .*`cadre sessions reset .* --force` releases the session/,
    );
    await store.finishRun(held.id, {
      status: "failed",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      error: "gone",
    });
    const { reset } = await resetAgentSession(store, ceo.id);
    expect(reset).toBe(true);
    expect(await store.getAgentSession(ceo.id)).toBeUndefined();
    expect(await store.listActivity(ceo.companyId, { type: "agent.session_reset" })).toHaveLength(1);
    const fresh = await wake(ceo.id);
    expect(fresh.result.session).toMatchObject({ resumed: false, rolledOver: false });
    expect(fresh.result.session.id).not.toBe(first.result.session.id);
    expect(fresh.report.sessions).toEqual([
      { action: "started", harness: "pi", id: fresh.result.session.id },
    ]);
  });
});

describe("a session held by a run that died with its process", () => {
  it("reset --force releases it (the run's row still says running); the activity says it was forced", async () => {
    const ceo = await company();
    await wake(ceo.id, { trigger: "start_team_building" });
    const dead = await store.insertRun({
      id: "run_dead",
      companyId: ceo.companyId,
      agentId: ceo.id,
      trigger: "routine",
      mode: "awaiting-approval",
      profile: "semantic",
      cue: "x",
    });
    const { createdAt: _c, lastUsedAt: _l, ...fields } = (await store.getAgentSession(ceo.id))!;
    await store.putAgentSession({ ...fields, runningRunId: dead.id });
    await expect(resetAgentSession(store, ceo.id)).rejects.toThrow(/in use by run run_dead/);
    expect((await resetAgentSession(store, ceo.id, { force: true })).reset).toBe(true);
    const [activity] = await store.listActivity(ceo.companyId, { type: "agent.session_reset" });
    expect(activity!.data).toMatchObject({ forced: true, heldBy: "run_dead" });
    expect((await wake(ceo.id)).result.terminal).toBe("done");
  });
});

/** The identity of a real process that has exited: its pid runs nothing (or something else) now. */
function deadProcess(): ProcessOwner {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
    encoding: "utf8",
  });
  return { host: thisProcess().host, pid: Number(child.stdout), started: "a start long ago" };
}

/**
 * A wake of the agent in a process that has died since: what the wake runner writes in one
 * transaction — its wake lease (held by that process), its run and the agent's session lock — and
 * nothing after (no end, no session row of its own).
 */
async function wakeOfADeadProcess(agentId: string, runId: string): Promise<void> {
  const agent = (await store.getAgent(agentId))!;
  const connector = (await store.getConnector(agent.companyId, agent.connectorId))!;
  await store.transaction(async (tx) => {
    const claimed = await tx.claimWake({
      id: `wake_${runId}`,
      companyId: agent.companyId,
      agentId: agent.id,
      workerId: "dead-holder",
      leaseUntil: new Date(Date.now() + 60_000).toISOString(),
      owner: deadProcess(),
    });
    expect(claimed.outcome).toBe("claimed");
    await tx.insertRun({
      id: runId,
      companyId: agent.companyId,
      agentId: agent.id,
      trigger: "routine",
      mode: "awaiting-approval",
      profile: "semantic",
      cue: "x",
    });
    await tx.setWakeRun(`wake_${runId}`, "dead-holder", runId);
    await lockSession(tx, agent, connector, runId);
  });
}

describe("a session held by a run whose process died: its recovery releases it (no --force)", () => {
  it("recovery ends the run and releases the session in one transaction; the next wake resumes the kept session", async () => {
    const ceo = await company();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    const kept = first.result.session.id;
    await wakeOfADeadProcess(ceo.id, "run_killed");
    // Held: a switch and a plain reset are refused while the run still says running.
    await expect(setAgentModel(store, { agentId: ceo.id, model: OFFLINE_SMALL_MODEL_ID })).rejects.toThrow(
      /in use by run run_killed/,
    );
    await expect(resetAgentSession(store, ceo.id)).rejects.toThrow(/in use by run run_killed/);

    // One transaction: when the release cannot be written, the run is not ended either.
    const failing = new Proxy(store, {
      get(target, key) {
        if (key !== "transaction") return Reflect.get(target, key, target) as unknown;
        return (fn: (tx: StoreQueries) => Promise<unknown>, options?: object) =>
          target.transaction(
            (tx) =>
              fn(
                new Proxy(tx, {
                  get: (t, k) =>
                    k === "putAgentSession"
                      ? () => Promise.reject(new Error("the disk is full"))
                      : (Reflect.get(t, k, t) as unknown),
                }),
              ),
            options,
          );
      },
    }) as Store;
    await expect(recoverLostRuns(failing)).rejects.toThrow("the disk is full");
    expect((await store.getRun("run_killed"))?.status).toBe("running");
    expect(await store.getAgentSession(ceo.id)).toMatchObject({ runningRunId: "run_killed" });

    const recovery = await recoverLostRuns(store);
    expect(recovery.runs).toEqual([expect.objectContaining({ runId: "run_killed", sessionReleased: true })]);
    expect(describeRecovery(recovery)[0]).toContain("its agent's session released");
    expect(await store.getRun("run_killed")).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
    // The kept session is the last completed run's, released: no --force.
    expect(await store.getAgentSession(ceo.id)).toMatchObject({
      sessionId: kept,
      runningRunId: null,
      lastRunId: "run_killed",
    });
    const next = await wake(ceo.id);
    expect(next.result.terminal).toBe("done");
    expect(next.result.session).toMatchObject({ id: kept, resumed: true });
    expect(next.report.sessions).toEqual([{ action: "resumed", harness: "pi", id: kept }]);
    expect(await store.getAgentSession(ceo.id)).toMatchObject({
      runningRunId: null,
      lastRunId: next.result.run.id,
    });
  });

  it("the next wake recovers the dead wake in its way itself, and resumes the session", async () => {
    const ceo = await company();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    await wakeOfADeadProcess(ceo.id, "run_killed");
    const next = await wake(ceo.id);
    expect(await store.getRun("run_killed")).toMatchObject({ status: "failed", error: INTERRUPTED_REASON });
    expect(next.result.terminal).toBe("done");
    expect(next.result.session).toMatchObject({ id: first.result.session.id, resumed: true });
    // A model switch now goes through: nothing holds the session.
    expect(
      (await setAgentModel(store, { agentId: ceo.id, model: OFFLINE_SMALL_MODEL_ID })).session.action,
    ).toBe("switch");
  });
});

describe("a move to another connector between wakes", () => {
  async function twoConnectors() {
    const created = await createCompany(store, {
      name: "Acme Robotics",
      goal: "Build warehouse robots and sell them to logistics companies.",
      connectors: [
        { id: "rehearsal", kind: "offline", enabledModels: [OFFLINE_MODEL_ID] },
        { id: "second", kind: "offline", enabledModels: [OFFLINE_MODEL_ID] },
      ],
      ceoConnectorId: "rehearsal",
    });
    return (await loadCompanyState(store, created.id)).ceo;
  }

  it("the kept session never continues on the other connector: the next wake starts fresh from its handoff", async () => {
    const ceo = await twoConnectors();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    const change = await setAgentModel(store, {
      agentId: ceo.id,
      model: OFFLINE_MODEL_ID,
      connectorId: "second",
    });
    expect(change).toMatchObject({
      changed: true,
      fromConnectorId: "rehearsal",
      agent: { connectorId: "second" },
    });
    expect(change.session.reason).toMatch(
      /moved to connector "second": the next wake starts a fresh session/,
    );
    const requests: Request[] = [];
    const second = await wake(ceo.id, { wrapStreamFn: recorder(requests) });
    expect(second.result.session).toMatchObject({ harness: "pi", resumed: false, rolledOver: true });
    expect(second.result.session.id).not.toBe(first.result.session.id);
    expect(requests[0]!.first).toMatch(/^# Handoff\n/);
    expect(await store.getAgentSession(ceo.id)).toMatchObject({
      connectorId: "second",
      sessionId: second.result.session.id,
    });
  });

  it("a run holding the session refuses the move: nothing is written", async () => {
    const ceo = await twoConnectors();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const held = wake(ceo.id, {
      trigger: "start_team_building",
      wrapStreamFn: (inner) => async (model, context, options) => {
        started();
        await gate;
        return inner(model, context, options);
      },
    });
    await running;
    const before = await store.counts();
    await expect(
      setAgentModel(store, { agentId: ceo.id, model: OFFLINE_MODEL_ID, connectorId: "second" }),
    ).rejects.toThrow(/session is in use by run run_\w+: the move to connector "second" waits until it ends/);
    expect(await store.counts()).toEqual(before);
    release();
    await held;
    expect((await store.getAgent(ceo.id))!.connectorId).toBe("rehearsal");
  });
});

describe("MC-13 a model switch between wakes, assessed against the target window inside the session lock", () => {
  it("MC-13 a history that fits the smaller window: the next wake resumes the same session on the new model; Pi's reserve is frozen again for its window", async () => {
    const ceo = await company();
    const first = await wake(ceo.id, { trigger: "start_team_building" });
    const change = await setAgentModel(store, { agentId: ceo.id, model: OFFLINE_SMALL_MODEL_ID });
    expect(change.session).toMatchObject({ action: "switch" });
    const second = await wake(ceo.id);
    expect(second.result.session).toMatchObject({ id: first.result.session.id, resumed: true });
    expect(second.report.snapshot).toMatchObject({
      model: OFFLINE_SMALL_MODEL_ID,
      contextWindow: 32_000,
      reserveTokens: 3_200,
    });
  });

  it("MC-13 a history at or over 90% of the target window: the handoff first (the old window closed for good), then the new route; visible in the next run and its activity", async () => {
    const ceo = await company();
    // The rehearsal fault makes the provider report the window 95% full (121,600 of 128,000 tokens).
    const first = await wake(ceo.id, { trigger: "start_team_building", faults: ["compact-overloaded"] });
    expect(first.report.snapshot!.tokensInWindow).toBeGreaterThan(0.9 * 32_000);
    const change = await setAgentModel(store, { agentId: ceo.id, model: OFFLINE_SMALL_MODEL_ID });
    expect(change.session).toMatchObject({
      action: "handoff-then-switch",
      fromSession: first.result.session.id,
      reason: expect.stringMatching(/^switch to offline-scripted-small-1: pi: overflow at \d+ tokens/),
    });
    expect(await store.getAgentSession(ceo.id)).toMatchObject({
      sessionId: null,
      model: OFFLINE_SMALL_MODEL_ID,
      previousSessionId: first.result.session.id,
    });
    const [activity] = await store.listActivity(ceo.companyId, { type: "agent.model_changed" });
    expect(activity!.data).toMatchObject({ session: { action: "handoff-then-switch" } });
    const requests: Request[] = [];
    const second = await wake(ceo.id, { wrapStreamFn: recorder(requests) });
    expect(second.result.session).toMatchObject({ resumed: false, rolledOver: true });
    expect(second.result.session.id).not.toBe(first.result.session.id);
    expect(second.report.rollovers).toMatchObject([
      {
        reason: change.session.reason,
        fromSession: first.result.session.id,
        toSession: second.result.session.id,
      },
    ]);
    expect(requests[0]!.first).toMatch(/^# Handoff\n/);
    expect(second.report.snapshot).toMatchObject({ model: OFFLINE_SMALL_MODEL_ID, rollovers: 1 });
  });

  it("MC-13 a running turn refuses the switch: nothing is written", async () => {
    const ceo = await company();
    await wake(ceo.id, { trigger: "start_team_building" });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started: () => void = () => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const held = wake(ceo.id, {
      wrapStreamFn: (inner) => async (model, context, options) => {
        started();
        await gate;
        return inner(model, context, options);
      },
    });
    await running;
    const before = await store.counts();
    await expect(setAgentModel(store, { agentId: ceo.id, model: OFFLINE_SMALL_MODEL_ID })).rejects.toThrow(
      /session is in use by run run_\w+: the switch to offline-scripted-small-1 waits until it ends \(a turn is running: no hot switch then send\)/,
    );
    expect(await store.counts()).toEqual(before);
    release();
    await held;
    expect((await store.getAgent(ceo.id))!.model).toBe(OFFLINE_MODEL_ID);
  });
});
