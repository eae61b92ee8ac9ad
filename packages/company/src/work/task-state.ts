// What a task operation decides on, whatever the team's size: the company's summary (mode,
// settings, counts — one statement, no agent list), the acting agent, and the other agents it
// names read by id or name when it names them, each once per operation.
import type { AgentRow, StoreQueries } from "@cadre/store";
import { type CompanySummaryState, loadCompanySummary } from "../state.js";

export interface TaskState extends CompanySummaryState {
  /** Active agents of the company read so far in this operation, by id. */
  known: Map<string, AgentRow>;
}

/** The state of `companyId`, with the acting agent (`agentId`; null for the operator). */
export async function loadTaskState(
  q: StoreQueries,
  companyId: string,
  agentId: string | null,
): Promise<TaskState> {
  const summary = await loadCompanySummary(q, companyId, { agentId });
  const known = new Map<string, AgentRow>([[summary.ceo.id, summary.ceo]]);
  if (summary.agent) known.set(summary.agent.id, summary.agent);
  return { ...summary, known };
}

/** The active agent of this company with this id, or null (read once per operation). */
export async function activeAgentOf(
  q: StoreQueries,
  state: TaskState,
  id: string | null,
): Promise<AgentRow | null> {
  if (id === null) return null;
  const held = state.known.get(id);
  if (held) return held;
  const a = await q.getAgent(id);
  if (!a || a.companyId !== state.company.id || a.status !== "active") return null;
  state.known.set(a.id, a);
  return a;
}

/** An agent's name as a result names it: an active agent's name, else its id (null for nobody). */
export async function nameOf(q: StoreQueries, state: TaskState, id: string | null): Promise<string | null> {
  if (id === null) return null;
  return (await activeAgentOf(q, state, id))?.name ?? id;
}

/** The active agent whose name reads as `name` (names compare on their key), or null. */
export async function activeAgentNamed(
  q: StoreQueries,
  state: TaskState,
  name: string,
): Promise<AgentRow | null> {
  const taken = (await q.getCompanySummary(state.company.id, { name }))?.nameTaken ?? null;
  if (taken) state.known.set(taken.id, taken);
  return taken;
}
