// What refuses a wake before anything is written: an agent that is not active, a member before the
// strategy is approved, a rehearsal or a cassette its connector cannot take, and the operator's
// "start team building" where it does not fit the mode. Pure: decided from what the plan read.
import { UserInputError } from "@cadre/core";
import type { AgentRow, ConnectorRow } from "@cadre/store";
import { driverOf } from "../connectors/kinds/index.js";
import { operatorActionsIn } from "../modes.js";
import { requireWrappable } from "../session.js";
import type { ModeView } from "../state.js";
import type { WakeOptions } from "./options.js";

export function refuseInactive(agent: AgentRow): void {
  if (agent.status !== "active")
    throw new UserInputError(
      `agent ${agent.name} (${agent.id}) is ${agent.status}; only active agents can be woken`,
    );
}

/** Governance in code (C4-4): the team's work needs an approved strategy. */
export function refuseBeforeStrategy(agent: AgentRow, state: ModeView): void {
  if (!agent.isCeo && state.mode !== "operating")
    throw new UserInputError(
      `${agent.name} cannot start work yet: the company strategy is not approved (CEO phase: ${state.mode}). Approve the strategy first.`,
    );
}

export function refuseUnfitConnector(agent: AgentRow, connector: ConnectorRow, options: WakeOptions): void {
  if (options.faults?.length && !driverOf(connector.kind).rehearsesFaults)
    throw new UserInputError(
      `--faults rehearses failures on the offline connector only; ${agent.name} runs on "${connector.id}" (${connector.kind})`,
    );
  if (options.wrapStreamFn && !options.wrapHarness) requireWrappable(connector, agent.name);
}

/**
 * The operator's "start team building" is offered only where it fits (modeOffer): anywhere else
 * its cue would contradict the mode. (Only the caller names it: a wake request's trigger or an
 * inferred one never is.)
 */
export function refuseMisplacedTrigger(agent: AgentRow, state: ModeView, options: WakeOptions): void {
  if (
    options.trigger === "start_team_building" &&
    !(agent.isCeo && operatorActionsIn(state.mode).includes(options.trigger))
  )
    throw new UserInputError(
      agent.isCeo
        ? `start team building is offered only while the CEO is in team-building; the CEO is in ${state.mode} (${state.modeReason}). Wake the CEO without a trigger instead.`
        : `start team building is the CEO's trigger; ${agent.name} is not the CEO. Wake it without a trigger instead.`,
    );
}
