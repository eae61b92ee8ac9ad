// The company's thread between the operator and the CEO. A message is an activity
// row (`message.posted`), so it reaches the company feed — and every live view — in the
// transaction that writes it. The operator's message wakes the CEO (operator_message), decided here
// in code; the CEO answers with reply_to_operator. The thread is governance-neutral (OP-6): it
// writes nothing a mode, a tool offer or an approval is decided from.
import { NotFoundError, UserInputError } from "@cadre/core";
import { describeProblems, parse, type Static, Text } from "@cadre/model";
import { Type } from "typebox";
import type { ActivityRow, AgentRow, StoreQueries, Store } from "@cadre/store";
import type { ActionResult, Actor } from "../actions/actor.js";
import { runOnce, type ToolCallRef } from "../actions/once.js";
import { loadCompanyState } from "../state.js";
import { requestWakes } from "../work/requests.js";

export const MESSAGE_ACTIVITY = "message.posted";

export const MessageText = Text({
  maxLength: 4000,
  multiline: true,
  description: "The message, in plain words (markdown allowed).",
});

export const postMessageSchema = Type.Object({ text: MessageText }, { additionalProperties: false });
export type PostMessageInput = Static<typeof postMessageSchema>;

/** A message as typed (`cadre chat send`), checked as the route checks its body; refused: nothing written. */
export function checkMessageInput(raw: unknown): PostMessageInput {
  const parsed = parse(postMessageSchema, raw);
  if (parsed.ok) return parsed.value;
  throw new UserInputError(
    `message: nothing was written. Fix: ${describeProblems(parsed.problems)}.`,
    parsed.problems,
  );
}

/** One message of the thread, as every reader shows it. */
export interface ThreadMessage {
  /** The activity row's id: messages are in id order, and `after` pages by it. */
  id: number;
  companyId: string;
  /** "operator", or the agent id of the CEO that wrote it. */
  from: string;
  /** The named operator who wrote it, "the operator" (the data directory's or root token's), or the agent's name. */
  fromName: string;
  text: string;
  /** The run that wrote it (a CEO's reply); null for the operator's. */
  runId: string | null;
  at: string;
}

interface MessageData {
  from: string;
  text: string;
  /** The named operator who wrote it (`cadre operators add`); absent for the unnamed operator. */
  operatorName?: string;
}

/** The agents who wrote these messages, each read once by id (never the whole team). */
async function writersOf(
  q: StoreQueries,
  companyId: string,
  rows: readonly ActivityRow[],
): Promise<AgentRow[]> {
  const ids = new Set(rows.map((r) => (r.data as MessageData).from).filter((from) => from !== "operator"));
  const out: AgentRow[] = [];
  for (const id of ids) {
    const a = await q.getAgent(id);
    if (a && a.companyId === companyId) out.push(a);
  }
  return out;
}

function messageOf(row: ActivityRow, agents: readonly AgentRow[]): ThreadMessage {
  const data = row.data as MessageData;
  return {
    id: row.id,
    companyId: row.companyId,
    from: data.from,
    fromName:
      data.from === "operator"
        ? (data.operatorName ?? "the operator")
        : (agents.find((a) => a.id === data.from)?.name ?? data.from),
    text: data.text,
    runId: row.runId,
    at: row.at,
  };
}

/** The thread, oldest first: messages after `after` (an id), at most `limit`, with the next cursor. */
export async function listMessages(
  q: StoreQueries,
  companyId: string,
  page: { after?: number; limit?: number } = {},
): Promise<{ items: ThreadMessage[]; nextCursor: string | null }> {
  if (!(await q.getCompany(companyId))) throw new NotFoundError(`company ${companyId} not found`);
  const limit = page.limit ?? 100;
  const rows = (await q.listActivity(companyId, { type: MESSAGE_ACTIVITY })).filter(
    (r) => r.id > (page.after ?? 0),
  );
  const shown = rows.slice(0, limit);
  const agents = await writersOf(q, companyId, shown);
  const items = shown.map((r) => messageOf(r, agents));
  return { items, nextCursor: rows.length > limit ? String(items.at(-1)!.id) : null };
}

/**
 * The operator writes to the CEO: the message and the CEO's wake request, in one transaction.
 * `by`: the named operator writing (the thread shows their name), absent for the unnamed one.
 */
export async function postOperatorMessage(
  store: Store,
  companyId: string,
  input: PostMessageInput,
  by: { operatorName?: string } = {},
): Promise<{ message: ThreadMessage; wakes: string[] }> {
  return store.transaction(async (tx) => {
    const state = await loadCompanyState(tx, companyId);
    const row = await tx.insertActivity({
      companyId,
      agentId: null,
      runId: null,
      type: MESSAGE_ACTIVITY,
      data: {
        from: "operator",
        text: input.text,
        ...(by.operatorName !== undefined ? { operatorName: by.operatorName } : {}),
      } satisfies MessageData,
    });
    await requestWakes(
      tx,
      companyId,
      [
        {
          agentId: state.ceo.id,
          trigger: "operator_message",
          taskId: null,
          cause: "the operator wrote to you",
        },
      ],
      "operator",
      null,
    );
    return { message: messageOf(row, state.activeAgents), wakes: [state.ceo.id] };
  });
}

/** The CEO answers the operator (reply_to_operator): posted to the thread; it wakes nobody. */
export async function replyToOperator(
  store: Store,
  actor: Actor,
  input: PostMessageInput,
  call: ToolCallRef = {},
): Promise<ActionResult<{ messageId: number; at: string }>> {
  const { result } = await runOnce(store, actor, "reply_to_operator", input, call, async (tx) => {
    const state = await loadCompanyState(tx, actor.companyId);
    if (actor.agentId !== state.ceo.id)
      return {
        ok: false as const,
        message:
          "reply_to_operator was not run, nothing was written. agent: only the CEO writes to the operator in the company thread.",
        fields: { agent: "only the CEO writes to the operator in the company thread" },
      };
    const row = await tx.insertActivity({
      companyId: actor.companyId,
      agentId: actor.agentId,
      runId: actor.runId,
      type: MESSAGE_ACTIVITY,
      data: { from: actor.agentId, text: input.text } satisfies MessageData,
    });
    return { ok: true as const, value: { messageId: row.id, at: row.at } };
  });
  return result;
}

/**
 * The CEO's closing text of a wake for finished delegated work, posted to the thread as its
 * report — unless that run already wrote to the operator, or said nothing. In the run's end
 * transaction.
 */
export async function postDelegatedReport(
  tx: StoreQueries,
  report: { companyId: string; ceoId: string; runId: string; text: string },
): Promise<void> {
  const text = report.text.trim();
  if (text === "") return;
  const thread = await tx.listActivity(report.companyId, { type: MESSAGE_ACTIVITY });
  if (thread.some((m) => m.runId === report.runId)) return;
  await tx.insertActivity({
    companyId: report.companyId,
    agentId: report.ceoId,
    runId: report.runId,
    type: MESSAGE_ACTIVITY,
    data: { from: report.ceoId, text: [...text].slice(0, 4000).join("") } satisfies MessageData,
  });
}

/** The last messages of the thread, for the CEO's briefing when a message woke it. */
export async function recentMessages(
  q: StoreQueries,
  companyId: string,
  n: number,
): Promise<ThreadMessage[]> {
  const rows = (await q.listActivity(companyId, { type: MESSAGE_ACTIVITY })).slice(-n);
  const agents = await writersOf(q, companyId, rows);
  // The CEO reads every operator's words as the operator's: which person wrote is for the
  // dashboard's readers, not a new name the CEO would have to place.
  return rows
    .map((r) => messageOf(r, agents))
    .map((m) => (m.from === "operator" ? { ...m, fromName: "the operator" } : m));
}
