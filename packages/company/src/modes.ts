// The CEO mode state machine (C4-4). `resolveCeoMode` is the single function that decides both
// which cue is sent and which mode document the prompt loads, so the two can never drift.
import type { ApprovalStatus, CeoMode } from "@cadre/model";

/** How the prompts title each mode (locked, MC-7): the mode documents' headings, the cue's reference. */
export const MODE_TITLES: Readonly<Record<CeoMode, string>> = {
  "team-building": "Team Building Phase",
  "strategy-drafting": "Strategy Drafting Phase",
  "awaiting-approval": "Awaiting Approval Phase",
  revising: "Revision Phase",
  operating: "Operating Phase",
};

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

/** The operator's actions that depend on the CEO's mode (the dashboard's buttons, the CLI's commands). */
export type OperatorAction = "start_team_building" | "decide_strategy";

const OPERATOR_ACTIONS: Readonly<Record<CeoMode, readonly OperatorAction[]>> = {
  // "Start team building" is the operator's explicit trigger for an empty team (C4-3); once the
  // team exists or a strategy is filed, the CEO is woken with an ordinary wake instead.
  "team-building": ["start_team_building"],
  "strategy-drafting": [],
  "awaiting-approval": ["decide_strategy"],
  revising: [],
  operating: [],
};

/** The operator's actions that fit the mode (tools/offer.ts modeOffer puts them beside the tools). */
export function operatorActionsIn(mode: CeoMode): readonly OperatorAction[] {
  return OPERATOR_ACTIONS[mode];
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
