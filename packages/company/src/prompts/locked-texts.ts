// Every text that can reach a model's system part or its initial turn, gathered in one place for the
// system-prompt lock (MC-7): segment texts, mode documents and titles, cues, the tools' names,
// descriptions and schemas, and the templates of the generated segments (rendered from a fixed
// sample company, so a change to a template line in build.ts shows up as a changed text). A new
// prompt text (e.g. another prompt profile) is added here, then locked with `cadre prompts lock`.
import { CEO_MODES, type CeoMode, WAKE_TRIGGERS } from "@cadre/model";
import { EXEC_YIELD_CONTINUATION_TEMPLATE, type LockedText, type ToolDefinition } from "@cadre/core";
import type {
  AgentRow,
  ApprovalRow,
  CompanyRow,
  ConnectorRow,
  Store,
  TaskCommentRow,
  TaskRow,
} from "@cadre/store";
import type { ProbeBook } from "../connectors/probe-cache.js";
import type { CompanyState } from "../state.js";
import { PROFILE_DRIVERS } from "../profiles/registry.js";
import { offeredTools } from "../tools/offer.js";
import { type CompanyToolName, companyTools } from "../tools/registry.js";
import { renderBriefing } from "../work/briefing.js";
import { buildAgentPrompt, contactsSegment, hostRuntimeSegment } from "./build.js";
import { ceoCue, memberCue } from "./cues.js";
import { MODE_TITLES } from "../modes.js";
import { MODE_DOCUMENTS } from "../profiles/semantic/mode-documents.js";
import { SEGMENT_UPDATE_PREAMBLE } from "./session-update.js";
import {
  CEO_PRODUCT_APPEND,
  CONTACTS_EMPTY,
  HARNESS_PRESETS,
  MEMBER_PRODUCT_APPEND,
  MEMORY_RULES,
} from "./segments.js";

// The tool factories only close over the store; building the definitions never touches it. This
// stand-in throws if that ever changes, instead of locking something a real store produced.
const NO_STORE = new Proxy({} as Store, {
  get(_target, key) {
    throw new Error(
      `lockedTexts() builds tool definitions only; the tools tried to use the store (${String(key)})`,
    );
  },
});

function toolText(tool: ToolDefinition): string {
  return JSON.stringify(
    { name: tool.name, description: tool.description, parameters: tool.parameters },
    null,
    2,
  );
}

const AT = "2000-01-01T00:00:00.000Z";

function sampleAgent(id: string, name: string, role: string, isCeo: boolean): AgentRow {
  return {
    id,
    companyId: "cmp_sample",
    name,
    role,
    description: `{${name} responsibilities}`,
    department: isCeo ? null : "engineering",
    connectorId: "offline",
    model: "{model}",
    reportsTo: isCeo ? null : "agt_ceo",
    isCeo,
    status: "active",
    via: isCeo ? "system" : "tool",
    createdAt: AT,
  };
}

/** The sample's probe outcomes: every probe failed, with a placeholder for what its endpoint said. */
const SAMPLE_PROBES: ProbeBook = {
  peek: (spec) => ({
    kind: spec.kind,
    target: spec.target,
    ok: false,
    checkedAt: AT,
    latencyMs: 0,
    error: "{what the probe found}",
  }),
  refresh: async () => {},
  record: () => {},
};
const SAMPLE = { env: {}, probes: SAMPLE_PROBES };

/** A fixed company that exercises every branch of the generated segments' templates. */
function sampleState(mode: CeoMode): CompanyState {
  const company: CompanyRow = {
    id: "cmp_sample",
    name: "{company name}",
    goal: "{company goal}",
    settings: { maxTeamSize: 8, requireHireApproval: false, profile: "semantic" },
    createdAt: AT,
  };
  const connector = (id: string, kind: ConnectorRow["kind"]): ConnectorRow => ({
    companyId: company.id,
    id,
    kind,
    label: kind,
    enabledModels: ["{model}"],
    config: {},
    createdAt: AT,
  });
  const ceo = sampleAgent("agt_ceo", "CEO", "{CEO role}", true);
  const member = sampleAgent("agt_member", "{member name}", "{member role}", false);
  const strategy: ApprovalRow = {
    id: "apr_sample",
    companyId: company.id,
    type: "approve_ceo_strategy",
    title: "{strategy title}",
    payload: "",
    status: "rejected",
    filedByAgentId: ceo.id,
    via: "tool",
    decisionNote: "{operator note}",
    createdAt: AT,
    decidedAt: AT,
  };
  return {
    company,
    // offline is always ready; an openai-compatible connector without a base URL is never ready; a
    // gateway whose endpoint check failed says what its probe found.
    connectors: [
      connector("offline", "offline"),
      connector("local", "openai-compatible"),
      { ...connector("gateway", "openai-compatible"), config: { baseUrl: "http://{endpoint}/v1" } },
    ],
    activeAgents: [ceo, member],
    ceo,
    latestStrategy: strategy,
    modeState: { activeReports: 1, latestStrategy: "rejected" },
    mode,
    modeReason: "{mode reason}",
  };
}

/**
 * Every branch of the generated segments' templates, rendered (MC-7): each verdict wording, the
 * note-less decision, the pending strategy (no decision lines), the missing-goal fallback and a
 * connector with no models. A branch the lock never renders could be edited unnoticed.
 */
function templateBranches(state: CompanyState, ceo: AgentRow): LockedText[] {
  const strategy = state.latestStrategy as ApprovalRow;
  const out: LockedText[] = [];
  for (const status of ["pending", "approved", "rejected", "revision_requested"] as const)
    for (const note of [null, "{operator note}"]) {
      if (status === "pending" && note) continue;
      const variant: CompanyState = {
        ...state,
        latestStrategy: { ...strategy, status, decisionNote: note },
      };
      out.push({
        id: `template/host-runtime/ceo/${status}${note ? "/with-note" : ""}`,
        text: hostRuntimeSegment(variant, ceo, "revising"),
      });
    }
  const bare: CompanyState = {
    ...state,
    company: { ...state.company, goal: "" },
    connectors: state.connectors.map((c) => ({ ...c, enabledModels: [] })),
    latestStrategy: null,
  };
  out.push({
    id: "template/host-runtime/ceo/no-goal-no-models",
    text: hostRuntimeSegment(bare, ceo, "team-building"),
  });
  return out;
}

/** Every locked text, each under a stable id. */
export function lockedTexts(): LockedText[] {
  const texts: LockedText[] = [];
  for (const [harness, text] of Object.entries(HARNESS_PRESETS))
    texts.push({ id: `segment/harness-preset/${harness}`, text });
  texts.push({ id: "segment/product-append/ceo", text: CEO_PRODUCT_APPEND });
  texts.push({ id: "segment/product-append/member", text: MEMBER_PRODUCT_APPEND });
  texts.push({ id: "segment/memory-rules", text: MEMORY_RULES });
  texts.push({ id: "segment/contacts/empty", text: CONTACTS_EMPTY });
  for (const mode of CEO_MODES) {
    texts.push({ id: `mode/${mode}`, text: MODE_DOCUMENTS[mode] });
    texts.push({ id: `mode-title/${mode}`, text: MODE_TITLES[mode] });
    for (const trigger of WAKE_TRIGGERS)
      texts.push({ id: `cue/${mode}/${trigger}`, text: ceoCue(mode, trigger) });
  }
  texts.push({ id: "cue/member", text: memberCue("{role}") });
  for (const trigger of WAKE_TRIGGERS) {
    const cue = memberCue("{role}", trigger);
    if (cue !== memberCue("{role}")) texts.push({ id: `cue/member/${trigger}`, text: cue });
  }
  // A resumed session's changed segments travel in the per-call part under this preamble (MC-3).
  texts.push({ id: "per-call/segment-update", text: SEGMENT_UPDATE_PREAMBLE });
  const actor = { companyId: "cmp_sample", agentId: null, via: "tool" as const, runId: null };
  const tools = companyTools(NO_STORE, actor);
  texts.push({ id: "tools/order", text: tools.map((t) => t.name).join("\n") });
  texts.push({
    id: "tools/order/ceo-operating",
    text: offeredTools({ isCeo: true }, "operating").join("\n"),
  });
  texts.push({ id: "tools/order/member", text: offeredTools({ isCeo: false }, "operating").join("\n") });
  const all: CompanyToolName[] = [
    ...new Set([
      ...offeredTools({ isCeo: true }, "operating"),
      ...offeredTools({ isCeo: false }, "operating"),
    ]),
  ];
  for (const tool of companyTools(NO_STORE, actor, all))
    texts.push({ id: `tool/${tool.name}`, text: toolText(tool) });
  const state = sampleState("revising");
  const [ceo, member] = state.activeAgents as [AgentRow, AgentRow];
  texts.push({ id: "template/contacts/roster", text: contactsSegment(state, ceo) });
  // A member's directory is bounded: its manager, peers and reports, and a count of the rest.
  const head = { ...member, id: "agt_head", name: "{head name}", reportsTo: ceo.id };
  const report = { ...member, id: "agt_report", name: "{report name}", reportsTo: head.id };
  const team = { ...state, activeAgents: [ceo, { ...member, reportsTo: ceo.id }, head, report] };
  texts.push({ id: "template/contacts/member-bounded", text: contactsSegment(team, team.activeAgents[1]!) });
  texts.push({
    id: "template/host-runtime/ceo",
    text: hostRuntimeSegment(state, ceo, "revising", SAMPLE.env, SAMPLE.probes),
  });
  texts.push({
    id: "template/host-runtime/member",
    text: hostRuntimeSegment(state, member, "operating", SAMPLE.env, SAMPLE.probes),
  });
  texts.push({
    id: "template/system-prompt/member",
    text: buildAgentPrompt({
      state: sampleState("operating"),
      agent: member,
      mode: "operating",
      memoryIndex: "{MEMORY.md}",
      ...SAMPLE,
    }).systemPrompt,
  });
  texts.push({
    id: "template/system-prompt/ceo-remote",
    text: buildAgentPrompt({
      state: sampleState("team-building"),
      agent: ceo,
      mode: "team-building",
      memoryIndex: null,
      remote: true,
      ...SAMPLE,
    }).systemPrompt,
  });
  texts.push(...templateBranches(state, ceo));
  texts.push(...briefingTemplates());
  // Every selectable prompt profile's own texts (C4-7: e.g. the legacy baseline's) reach a model too.
  for (const driver of Object.values(PROFILE_DRIVERS)) texts.push(...driver.lockedTexts());
  // A turn the host itself sends (MC-14): the Codex continuation that waits on a yielded command.
  texts.push({ id: "turn/codex-exec-yield-continuation", text: EXEC_YIELD_CONTINUATION_TEMPLATE });
  return texts;
}

/** The per-call briefing's template (work/briefing.ts), rendered from a sample of every part. */
function briefingTemplates(): LockedText[] {
  const state = sampleState("operating");
  const [ceo, member] = state.activeAgents as [AgentRow, AgentRow];
  const task = (id: string, status: TaskRow["status"], over: Partial<TaskRow> = {}): TaskRow => ({
    id,
    companyId: "cmp_sample",
    title: `{title of ${id}}`,
    description: `{description of ${id}}`,
    status,
    assigneeAgentId: member.id,
    creatorAgentId: ceo.id,
    parentTaskId: null,
    strategyId: "apr_sample",
    deliverable: null,
    deliverableBy: null,
    checkoutRunId: null,
    blockers: [],
    via: "tool",
    createdAt: AT,
    updatedAt: AT,
    ...over,
  });
  const comment: TaskCommentRow = {
    id: "tcm_sample",
    taskId: "task_a",
    companyId: "cmp_sample",
    authorAgentId: null,
    authorName: null,
    body: "{operator comment}",
    runId: null,
    via: "http",
    createdAt: AT,
  };
  const strategy = {
    ...(state.latestStrategy as ApprovalRow),
    status: "approved" as const,
    payload: "{strategy text}",
  };
  const member_ = renderBriefing({
    agent: member,
    agents: state.activeAgents,
    strategy: null,
    taken: WAKE_TRIGGERS.filter((t) => t !== "task_done").map((trigger) => ({ trigger, taskId: "task_a" })),
    tasks: [
      {
        task: task("task_a", "in_progress", { blockers: ["task_b"] }),
        openBlockers: [task("task_b", "todo")],
        comments: [comment],
      },
    ],
    more: 1,
  });
  const ceo_ = renderBriefing({
    agent: ceo,
    agents: state.activeAgents,
    strategy,
    taken: [{ trigger: "task_done", taskId: "task_a" }],
    tasks: [
      {
        task: task("task_a", "done", { deliverable: "{deliverable}", deliverableBy: member.id }),
        openBlockers: [],
        comments: [],
      },
    ],
    more: 0,
  });
  return [
    { id: "template/briefing/member", text: member_ },
    { id: "template/briefing/ceo", text: ceo_ },
  ];
}
