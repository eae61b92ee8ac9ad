// Initial user turns (C4-3): short semantic cues chosen from (mode, trigger). They only signal;
// the system prompt says what to do. No tool names, paths, numbers or urgency words.
import type { CeoMode, PromptProfile, WakeTrigger } from "@cadre/model";
import { countTokens } from "@cadre/core";
import { type CeoModeState, MODE_TITLES, resolveCeoMode } from "../modes.js";
import { profileDriver } from "../profiles/registry.js";

/** Why an agent was woken. An explicit operator action stays distinguishable from a routine wake. */

const SITUATION: Readonly<Record<CeoMode, string>> = {
  "team-building": "Your team is currently empty.",
  "strategy-drafting": "Your team is in place and your strategy has not been filed yet.",
  "awaiting-approval": "Your strategy is waiting for the operator's decision.",
  revising: "The operator did not approve your strategy and has left you a note.",
  operating: "Your strategy is approved.",
};

/** What changed, in one sentence per trigger: never how to act (the system prompt says that). */
const TRIGGER_LINE: Readonly<Record<WakeTrigger, string>> = {
  start_team_building: "The operator asks you to start building your team.",
  approval_decided: "The operator has decided on your strategy.",
  task_resumed: "Your last session on a task of yours was interrupted before it ended.",
  task_unassigned: "A task has come back to you: the team member working on it has left.",
  task_assigned: "A task has been assigned to you.",
  task_commented: "The operator has commented on a task of yours.",
  task_unblocked: "A task of yours is no longer blocked.",
  task_done: "Work you delegated has been completed.",
  scheduled: "This is your scheduled check-in.",
  routine: "",
};

/** The line a member's cue says for an approval decision (members never decide on the strategy). */
const MEMBER_TRIGGER_LINE: Readonly<Record<WakeTrigger, string>> = {
  ...TRIGGER_LINE,
  start_team_building: "",
  approval_decided: "",
};

export function ceoCue(mode: CeoMode, trigger: WakeTrigger): string {
  const parts = [
    "You are the CEO.",
    TRIGGER_LINE[trigger],
    SITUATION[mode],
    `Review your ${MODE_TITLES[mode]} operating instructions in the system prompt, then take action.`,
  ];
  return parts.filter((p) => p.length > 0).join(" ");
}

/** Cue for a non-CEO agent's wake, from its trigger (members work in the operating company only). */
export function memberCue(role: string, trigger: WakeTrigger = "routine"): string {
  return [
    `You are the ${role}.`,
    MEMBER_TRIGGER_LINE[trigger],
    "Review your operating instructions in the system prompt, then take action.",
  ]
    .filter((p) => p.length > 0)
    .join(" ");
}

/** A cue's size as wakes report it (`cueTokens`), for callers that read a cue back from its run row. */
export function cueTokenCount(cue: string): number {
  return countTokens(cue);
}

/**
 * The one CEO-mode decision (C4-4): the mode resolved from the company state, with the mode
 * document it loads and the cue it implies. A wake decides once, before its run starts; its
 * trigger is chosen later, inside the transaction that claims the run (work/start.ts), so the cue
 * is this decision's `cueFor(trigger)` — never a second resolution of the mode — and the prompt
 * builder gets this same object: the cue and the system prompt cannot name different phases.
 */
export interface CeoModeDecision {
  mode: CeoMode;
  /** The phase's title, as the cue and the mode document both name it. */
  title: string;
  /** The locked mode document of `mode` (MC-7). */
  document: string;
  /** The cue of this decision's mode for the wake's trigger (C4-3): from (mode, trigger). */
  cueFor(trigger: WakeTrigger): string;
}

/**
 * `profile` (C4-7): the mode documents are the profile's (profiles/), as a rollback ships them; a
 * profile with an initial turn of its own sends it in place of the cue.
 */
export function decideCeoMode(state: CeoModeState, profile: PromptProfile = "semantic"): CeoModeDecision {
  const mode = resolveCeoMode(state);
  const document = profileDriver(profile).modeDocuments[mode];
  return { mode, title: MODE_TITLES[mode], document, cueFor: (trigger) => ceoCue(mode, trigger) };
}
