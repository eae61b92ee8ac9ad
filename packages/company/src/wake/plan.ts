// A wake's plan, before anything is written: one read of the agent, one of the company (its
// summary: connectors, CEO, counts, strategy — never the team), the agent's bounded directory
// (its manager, the first of its peers and reports), one of the budgets that apply (checked for room and
// handed to the run's budget), the readiness probes refreshed outside every transaction (C4-9),
// and the prompt built from them. Whatever refuses the wake refuses it here (refusals.ts).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { NotFoundError, type Redactor } from "@cadre/core";
import type { CeoMode, PromptProfile, WakeTrigger } from "@cadre/model";
import type { AgentRow, ConnectorRow } from "@cadre/store";
import { type AppliedBudgets, appliedBudgets, BudgetExhaustedError } from "../budgets/policy.js";
import { budgetRefusal } from "../budgets/run-budget.js";
import { refreshReadiness } from "../connectors/readiness.js";
import { type ProbeBook, sharedProbes } from "../connectors/probe-cache.js";
import { buildAgentPrompt } from "../prompts/build.js";
import { decideCeoMode, memberCue } from "../prompts/cues.js";
import { profileDriver } from "../profiles/registry.js";
import type { ProfileWake } from "../profiles/types.js";
import { secretsRedactor } from "../secrets.js";
import { type CompanySummaryState, loadCompanySummary } from "../state.js";
import { type Directory, readDirectory } from "../prompts/directory.js";
import type { WakeOptions } from "./options.js";
import * as refuse from "./refusals.js";

export interface WakePlan {
  agent: AgentRow;
  state: CompanySummaryState;
  /** Whom the agent's prompt lists (and the authors the briefing may name without a read). */
  directory: Directory;
  connector: ConnectorRow;
  profile: PromptProfile;
  mode: CeoMode;
  byProfile: ProfileWake;
  cueOf: (trigger: WakeTrigger) => string;
  env: NodeJS.ProcessEnv;
  probes: ProbeBook;
  prompt: ReturnType<typeof buildAgentPrompt>;
  budgets: AppliedBudgets;
  /** Every key of the wake's environment: no provider text that echoes one is stored or shown. */
  redact: Redactor;
}

async function readMemoryIndex(dataDir: string | undefined, agentId: string): Promise<string | null> {
  if (!dataDir) return null;
  return readFile(join(dataDir, "agents", agentId, "MEMORY.md"), "utf8").catch(() => null);
}

export async function planWake(options: WakeOptions): Promise<WakePlan> {
  const { store } = options;
  const env = options.env ?? process.env;
  // Read on the thread pool while the store reads run (a missing or unreadable file is no index).
  const memoryRead = readMemoryIndex(options.dataDir, options.agentId);
  const checked = options.checked?.agent.id === options.agentId ? options.checked : undefined;
  const agent = checked?.agent ?? (await store.getAgent(options.agentId));
  if (!agent) throw new NotFoundError(`agent ${options.agentId} not found`);
  refuse.refuseInactive(agent);
  const state = await loadCompanySummary(store, agent.companyId);
  refuse.refuseBeforeStrategy(agent, state);
  const connector = state.connectors.find((c) => c.id === agent.connectorId);
  if (!connector) throw new NotFoundError(`connector ${agent.connectorId} of agent ${agent.id} not found`);
  refuse.refuseUnfitConnector(agent, connector, options);
  // A budget with no room refuses the wake before anything is written (OP-3); a due-work pass
  // checked it just now.
  const budgets = checked?.budgets ?? (await appliedBudgets(store, agent));
  const refusal = checked ? undefined : await budgetRefusal(store, agent, budgets);
  if (refusal) throw new BudgetExhaustedError(`cannot wake: ${refusal.message}`, "budget");
  refuse.refuseMisplacedTrigger(agent, state, options);
  // The profile is settled before anything is written (one that needs an API and has none fails).
  const profile = options.profile ?? (agent.isCeo ? state.company.settings.profile : "semantic");
  // One decision per wake (C4-4): the mode, its mode document (the profile's) and its cues; the
  // trigger is chosen in the claim's transaction, the cue is this decision's for it.
  const decision = decideCeoMode(state.modeState, profile);
  const mode = decision.mode;
  const byProfile = profileDriver(profile).plan({ agent, apiUrl: options.apiUrl });
  const plainCue = (trigger: WakeTrigger) =>
    byProfile.cue ?? (agent.isCeo ? decision.cueFor(trigger) : memberCue(agent.role, trigger));
  const cueOf = (trigger: WakeTrigger) =>
    agent.isCeo && options.cue ? options.cue(mode, plainCue(trigger)) : plainCue(trigger);
  const memoryIndex = await memoryRead;
  const directory = await readDirectory(store, agent, state.ceo.id, state.activeCount);
  const probes = options.probes ?? sharedProbes;
  await refreshReadiness(state.connectors, env, probes);
  const prompt = buildAgentPrompt({
    state,
    directory,
    agent,
    mode: decision,
    memoryIndex,
    probes,
    ...(options.env ? { env: options.env } : {}),
    ...(options.modeDocument ? { modeDocument: options.modeDocument } : {}),
  });
  const redact = secretsRedactor(state.connectors, env);
  return {
    agent,
    state,
    directory,
    connector,
    profile,
    mode,
    byProfile,
    cueOf,
    env,
    probes,
    prompt,
    budgets,
    redact,
  };
}
