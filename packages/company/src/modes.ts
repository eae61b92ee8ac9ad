// The CEO mode state machine (C4-4). `resolveCeoMode` is the single function that decides both
// which cue is sent and which mode document the prompt loads, so the two can never drift.
import { type ApprovalStatus, CEO_MODES, type CeoMode } from "@cadre/model";

/** What the mode is computed from: facts from the store, nothing else. */
export interface CeoModeState {
  /** Active agents reporting to the CEO. */
  activeReports: number;
  /** Status of the most recently filed `approve_ceo_strategy` approval, if any. */
  latestStrategy: ApprovalStatus | null;
}

export function resolveCeoMode(state: CeoModeState): CeoMode {
  switch (state.latestStrategy) {
    case "approved":
      return "operating";
    case "pending":
      return "awaiting-approval";
    case "rejected":
    case "revision_requested":
      return "revising";
    case null:
      return state.activeReports === 0 ? "team-building" : "strategy-drafting";
  }
}

/** Why the mode is what it is, in words an operator reads (UI, `cadre company show`). */
export function explainCeoMode(state: CeoModeState): string {
  switch (resolveCeoMode(state)) {
    case "operating":
      return "the latest strategy was approved";
    case "awaiting-approval":
      return "the latest strategy is pending the operator's decision";
    case "revising":
      return `the latest strategy was ${state.latestStrategy === "rejected" ? "rejected" : "sent back for revision"}`;
    case "team-building":
      return "the CEO has no active direct reports and no strategy is filed";
    case "strategy-drafting":
      return `the CEO has ${state.activeReports} active direct report(s) and no strategy is filed`;
  }
}

/** The events that move the machine; used by the transition table and its tests. */
export type CeoModeEvent =
  "hire" | "last-report-leaves" | "file-strategy" | "approve" | "reject" | "request-revision";

/**
 * The transition table, derived from `resolveCeoMode` by applying each event to a representative
 * state — documentation that cannot disagree with the code. Missing entries mean "not allowed".
 */
export const CEO_TRANSITIONS: Readonly<Record<CeoMode, Partial<Record<CeoModeEvent, CeoMode>>>> = {
  "team-building": { hire: "strategy-drafting" },
  "strategy-drafting": {
    hire: "strategy-drafting",
    "last-report-leaves": "team-building",
    "file-strategy": "awaiting-approval",
  },
  "awaiting-approval": { approve: "operating", reject: "revising", "request-revision": "revising" },
  revising: { hire: "revising", "file-strategy": "awaiting-approval" },
  operating: { hire: "operating" },
};

/** The company tools, in the order a session offers them. */
export const COMPANY_TOOL_NAMES = [
  "hire_agent",
  "file_approval",
  "create_task",
  "assign_task",
  "update_task",
  "list_my_tasks",
] as const;
export type CompanyToolName = (typeof COMPANY_TOOL_NAMES)[number];

/**
 * Which company tools each mode offers the CEO. The mode documents describe exactly these, and the
 * tool handlers refuse a call outside them (governance in code, C4-4).
 */
export const MODE_TOOLS: Readonly<Record<CeoMode, readonly CompanyToolName[]>> = {
  "team-building": ["hire_agent"],
  "strategy-drafting": ["hire_agent", "file_approval"],
  "awaiting-approval": [],
  revising: ["hire_agent", "file_approval"],
  operating: ["hire_agent", "create_task", "assign_task", "update_task", "list_my_tasks"],
};

/** What every member gets: its own tasks (members run in the operating company only). */
export const MEMBER_TOOLS: readonly CompanyToolName[] = ["update_task", "list_my_tasks"];

/**
 * The company tools a session offers, by role and mode, in a fixed order (MC-3: the list never
 * changes within a session). The CEO keeps hire_agent and file_approval in every mode (their
 * handlers say when a mode refuses them) and gets the task tools in the operating company.
 */
export function offeredTools(agent: { isCeo: boolean }, mode: CeoMode): CompanyToolName[] {
  if (!agent.isCeo) return [...MEMBER_TOOLS];
  const base: CompanyToolName[] = ["hire_agent", "file_approval"];
  return mode === "operating"
    ? [...base, "create_task", "assign_task", "update_task", "list_my_tasks"]
    : base;
}

export function modeAllows(mode: CeoMode, tool: CompanyToolName): boolean {
  return MODE_TOOLS[mode].includes(tool);
}

export function modesAllowing(tool: CompanyToolName): CeoMode[] {
  return CEO_MODES.filter((m) => modeAllows(m, tool));
}

/** The operator's actions that depend on the CEO's mode (the dashboard's buttons, the CLI's commands). */
export type OperatorAction = "start_team_building" | "decide_strategy";

/**
 * What the CEO's mode offers, on every surface: the company tools whose calls can succeed for the
 * CEO (`MODE_TOOLS`, which the tool handlers enforce) and the operator's actions that fit the mode.
 * The API's company view, `cadre company show`, `cadre mcp` and the dashboard all read this one
 * function, so no surface offers what the code would refuse.
 */
export interface ModeOffer {
  mode: CeoMode;
  /** Company tools the CEO can use now; the agent is always given both (MC-3), the others refuse. */
  tools: readonly CompanyToolName[];
  operatorActions: readonly OperatorAction[];
}

const OPERATOR_ACTIONS: Readonly<Record<CeoMode, readonly OperatorAction[]>> = {
  // "Start team building" is the operator's explicit trigger for an empty team (C4-3); once the
  // team exists or a strategy is filed, the CEO is woken with an ordinary wake instead.
  "team-building": ["start_team_building"],
  "strategy-drafting": [],
  "awaiting-approval": ["decide_strategy"],
  revising: [],
  operating: [],
};

export function modeOffer(mode: CeoMode): ModeOffer {
  return { mode, tools: MODE_TOOLS[mode], operatorActions: OPERATOR_ACTIONS[mode] };
}

/** The mode after a decision on the latest strategy, from `resolveCeoMode` itself (shown before deciding). */
export function modeAfterDecision(
  state: CeoModeState,
  decision: "approved" | "rejected" | "revision_requested",
): CeoMode {
  return resolveCeoMode({ ...state, latestStrategy: decision });
}

export const OPERATOR_ACTIONS_LIST = [
  "start_team_building",
  "decide_strategy",
] as const satisfies readonly OperatorAction[];
