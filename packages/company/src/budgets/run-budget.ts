// One run's budget enforcement (OP-3), in code. Before every model call
// of a Pi-routed session the call is reserved in the spend ledger — its estimated input and its
// maximum output (capped to the room left) at the model's price — in one serializable transaction
// that checks every budget that applies (the company's, the agent's, the run's caps), so two
// workers or two processes can never reserve the same room. No room: the call is not sent, the run
// ends `failed` with stop reason `budget` (or `run_cap`) after the call in flight settled. Each
// call's usage settles its reservation, priced at the model that served it, in the transaction
// that records the run's usage. Harnesses that call the model themselves (Claude Code, Codex) are
// checked after each call they report, and stopped when a limit is reached.
import {
  type AgentEvent,
  priceAt,
  type PriceEntry,
  costOf,
  type StreamFn,
  type ToolDefinition,
  textOutcome,
  type Usage,
} from "@cadre/core";
import type { AgentRow, Spend, Store, StoreQueries } from "@cadre/store";
import { newId } from "../ids.js";
import {
  type AppliedBudgets,
  type AppliedRunCaps,
  appliedBudgets,
  budgetName,
  BudgetExhaustedError,
  type EffectiveBudget,
  periodStart,
  raiseHint,
  refusalOf,
  roomOf,
  spendOfBudget,
  usd,
} from "./policy.js";
import { estimateInputTokens } from "./estimate.js";
import { giveBackRunWork } from "../work/release.js";
import type { BudgetEnforcement } from "../connectors/kinds/driver.js";

/** A call may not be sent when it could not produce at least this many output tokens. */
export const MIN_OUTPUT_TOKENS = 256;

/** What the session is told: short on purpose (no digits: Pi's retry and overflow classifiers read it). */
export const STOPPED_BY_BUDGET = "stopped in code by Cadre's spend control: the model call was not sent";

export interface RunStop {
  reason: "budget" | "run_cap";
  message: string;
  /** The company's or agent's budget that is exhausted (absent for the run's own caps). */
  budget?: BudgetScope;
}

/** Which budget refused: the company's (every agent of it) or one agent's. */
export interface BudgetScope {
  scope: "company" | "agent";
  companyId: string;
  agentId: string | null;
}

/** A budget that has no room for a wake: which one, and why (naming its use and how to raise it). */
export interface BudgetRefusal extends BudgetScope {
  message: string;
}

/** A model call's usage as it settles, with the model the response said served it, if it said. */
export interface SettledCall {
  usage: Usage;
  servedModel?: string;
}

/** How a run's budget is set up: what was read for it already, and how its connector is held to it. */
export interface RunBudgetSetup {
  prices?: readonly PriceEntry[];
  /** The budgets the wake read when it planned (read again when absent). */
  applied?: AppliedBudgets;
  /** The connector kind's enforcement (its driver's); default before each call (Pi-routed). */
  enforcement?: BudgetEnforcement;
}

interface Reservation {
  id: string;
  model: string;
  servedModel?: string;
}

/** The budget that leaves no room for a wake of `agent` (the company's first), or undefined. Reads only. */
export async function budgetRefusal(
  store: StoreQueries,
  agent: Pick<AgentRow, "id" | "companyId">,
  read?: AppliedBudgets,
): Promise<BudgetRefusal | undefined> {
  const applied = read ?? (await appliedBudgets(store, agent));
  for (const b of [applied.company, applied.agent]) {
    if (!b) continue;
    // What is used (settled): a call in flight elsewhere holds its reservation against the next
    // model call's reservation, which refuses that call (the run then ends failed/budget); it does
    // not refuse a wake by itself.
    const spend = await spendOfBudget(store, b);
    const used = {
      ...spend,
      tokens: spend.tokens - spend.reservedTokens,
      usd: spend.usd - spend.reservedUsd,
    };
    const refusal = exhaustion(b, used) ?? (await hardStopOf(store, b, used));
    if (refusal) return { scope: b.scope, companyId: b.companyId, agentId: b.agentId, message: refusal };
  }
  return undefined;
}

/**
 * Refuses a wake of `agent` — before it is queued or started — when a budget that applies has no
 * room left, naming the budget, its use and how to raise it. Writes nothing.
 */
export async function assertBudgetRoom(
  store: StoreQueries,
  agent: Pick<AgentRow, "id" | "companyId">,
): Promise<void> {
  const refusal = await budgetRefusal(store, agent);
  if (refusal) throw new BudgetExhaustedError(`cannot wake: ${refusal.message}`, "budget");
}

/**
 * The stop a budget called since it was last changed: a run it stopped holds it exhausted (no
 * further wake starts) until the operator raises or changes it.
 */
export async function hardStopOf(
  store: StoreQueries,
  b: EffectiveBudget,
  used?: Spend,
): Promise<string | undefined> {
  // A budget read with its row says when it changed; one that has no row never changed.
  const changed = b.updatedAt ?? (b.stored ? (await store.getBudget(b.companyId, b.agentId))?.updatedAt : "");
  const since = [changed ?? "", periodStart(b.period) ?? ""].sort().at(-1) as string;
  const stops = await store.listActivity(b.companyId, { type: "budget.exhausted" });
  const hit = stops.find((a) => {
    const data = a.data as { scope?: string; budgetAgentId?: string | null; message?: string };
    return a.at >= since && data.scope === b.scope && (data.budgetAgentId ?? null) === b.agentId;
  });
  if (!hit) return undefined;
  const message = (hit.data as { message?: string }).message ?? `${budgetName(b)} is exhausted`;
  const now = used ? `; used now: ${useText(b, used)}` : "";
  return `${message} (run ${hit.runId} was stopped at ${hit.at}; a budget that stopped a run stays exhausted until it is changed${now})`;
}

/** What `b` has used, in its own units. */
function useText(b: EffectiveBudget, spend: Spend): string {
  const parts: string[] = [];
  if (b.limitTokens !== null) parts.push(`${spend.tokens} of ${b.limitTokens} tokens`);
  if (b.limitUsd !== null) parts.push(`${usd(spend.usd)} of ${usd(b.limitUsd)}`);
  return parts.join(", ") || "no limit";
}

/** Why `b` is used up (no room for even a small call), or undefined. */
export function exhaustion(b: EffectiveBudget, spend: Spend): string | undefined {
  if (b.limitTokens !== null && spend.tokens + MIN_OUTPUT_TOKENS > b.limitTokens)
    return `${budgetName(b)} is exhausted: ${spend.tokens} of ${b.limitTokens} tokens used or reserved; ${raiseHint(b, "tokens")}`;
  if (b.limitUsd !== null && spend.usd >= b.limitUsd)
    return `${budgetName(b)} is exhausted: ${usd(spend.usd)} of ${usd(b.limitUsd)} used or reserved; ${raiseHint(b, "usd")}`;
  return undefined;
}

export class RunBudget {
  /** Set once code stopped the run; the run then ends failed with this reason. */
  stop: RunStop | undefined;
  readonly #store: Store;
  readonly #agent: AgentRow;
  readonly #runId: string;
  readonly #prices: readonly PriceEntry[];
  readonly #applied: AppliedBudgets;
  readonly #reservations: Reservation[] = [];
  #enforcement: BudgetEnforcement = "before-each-call";
  #modelCalls = 0;
  #toolCalls = 0;
  #pendingSettled = 0;
  /** The model under the declared id was replaced (its fingerprint changed, MC-6): no call is priced. */
  #unpriced = false;

  private constructor(
    store: Store,
    agent: AgentRow,
    runId: string,
    applied: AppliedBudgets,
    prices: readonly PriceEntry[],
  ) {
    this.#store = store;
    this.#agent = agent;
    this.#runId = runId;
    this.#applied = applied;
    this.#prices = prices;
  }

  static async open(
    store: Store,
    agent: AgentRow,
    runId: string,
    how: RunBudgetSetup = {},
  ): Promise<RunBudget> {
    const applied = how.applied ?? (await appliedBudgets(store, agent));
    const budget = new RunBudget(store, agent, runId, applied, how.prices ?? []);
    budget.#enforcement = how.enforcement ?? "before-each-call";
    return budget;
  }

  /**
   * A harness that calls the model itself cannot have its next call refused before it is sent:
   * once code stopped its run, the session is cancelled and the tools it asks for are refused.
   */
  get cancelsHarness(): boolean {
    return this.#enforcement !== "before-each-call";
  }

  /**
   * What the run's events tell the budget, whatever the connector's kind: a model call the harness
   * reported (counted one by one where it reports each), and a tool it ran itself or refused (no
   * such tool), which never passed the run's wrapped tools that count their own calls.
   */
  observe(event: AgentEvent, offered: readonly Pick<ToolDefinition, "name">[]): void {
    if (event.type === "usage" && this.#enforcement === "after-each-reported-call")
      this.noteHarnessModelCall();
    if (event.type === "tool_use" && (event.refused === true || !offered.some((t) => t.name === event.name)))
      this.noteToolUse();
  }

  get caps(): AppliedRunCaps {
    return this.#applied.runCaps;
  }

  /** The run's own caps as a budget (total over the run). */
  #runScope(): EffectiveBudget & { runId: string } {
    return {
      scope: "agent",
      companyId: this.#agent.companyId,
      agentId: this.#agent.id,
      limitTokens: this.caps.maxTokens,
      limitUsd: this.caps.maxUsd,
      period: "total",
      warnAt: 1,
      stored: true,
      runId: this.#runId,
    };
  }

  /** Wraps a Pi session's stream function: every model call is reserved first, or not sent. */
  wrapStreamFn(inner: StreamFn): StreamFn {
    return async (model, context, options) => {
      const limit = options?.maxTokens ?? model.maxTokens;
      const reservation = await this.#reserve(model.id, estimateInputTokens(context), limit);
      const capped =
        reservation.maxTokens < limit ? { ...options, maxTokens: reservation.maxTokens } : options;
      const stream = await inner(model, context, capped);
      // The model the provider says served the call is the one priced (MC-15).
      // pi-ai keeps the requested id in `model` and the one the response named, when it differs, in
      // `responseModel` (the Chat Completions wire reports it).
      void stream.result().then(
        (message) => {
          const served = message.responseModel ?? message.model;
          if (served) reservation.entry.servedModel = served;
        },
        () => undefined,
      );
      return stream;
    };
  }

  /**
   * Wraps the run's tools: a call past the run's tool-call cap is refused (nothing runs) and stops
   * the run. On a harness that calls the model itself (whose next call cannot be refused before it
   * is sent) a tool the model asks for once code stopped the run is refused too.
   */
  wrapTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
    return tools.map((tool) => ({
      ...tool,
      execute: async (input, context) => {
        if (this.cancelsHarness && this.stop)
          return textOutcome(`Refused: ${tool.name} was not run; ${this.stop.message}`, true);
        this.#toolCalls++;
        const max = this.caps.maxToolCalls;
        if (max !== null && this.#toolCalls > max) {
          const message = `the run reached its cap of ${max} tool calls; ${tool.name} was not run. Raise it with \`cadre budgets set --company ${this.#agent.companyId} --run-tool-calls N\``;
          this.#stopWith({ reason: "run_cap", message });
          return textOutcome(`Refused: ${message}`, true);
        }
        return tool.execute(input, context);
      },
    }));
  }

  async #reserve(
    model: string,
    input: number,
    maxTokens: number,
  ): Promise<{ entry: Reservation; maxTokens: number }> {
    if (this.stop) throw new Error(STOPPED_BY_BUDGET);
    const maxCalls = this.caps.maxModelCalls;
    if (maxCalls !== null && this.#modelCalls >= maxCalls) {
      await this.#refuse({
        reason: "run_cap",
        message: `the run reached its cap of ${maxCalls} model calls; raise it with \`cadre budgets set --company ${this.#agent.companyId} --run-model-calls N\``,
      });
    }
    const price = priceAt(model, new Date().toISOString(), this.#prices);
    const scopes: Array<EffectiveBudget & { runId?: string }> = [this.#applied.company];
    if (this.#applied.agent) scopes.push(this.#applied.agent);
    scopes.push(this.#runScope());
    const id = newId("call");
    // Read committed under the company's spend lock: every reservation of the company decides after
    // the one before it committed, without serialization failures between unrelated writers.
    const decided = await this.#store.transaction(
      async (tx) => {
        await tx.lockSpend(this.#agent.companyId);
        let roomTokens = Infinity;
        let roomUsd = Infinity;
        const spends: Spend[] = [];
        for (const b of scopes) {
          const spend =
            b.runId !== undefined
              ? await tx.spendOf({ companyId: b.companyId, runId: b.runId })
              : await spendOfBudget(tx, b);
          spends.push(spend);
          const room = roomOf(b, spend);
          roomTokens = Math.min(roomTokens, room.tokens);
          roomUsd = Math.min(roomUsd, room.usd);
        }
        let out = Math.min(maxTokens, Math.floor(roomTokens - input));
        if (price && roomUsd !== Infinity && price.output > 0)
          out = Math.min(out, Math.floor(((roomUsd - (input * price.input) / 1e6) * 1e6) / price.output));
        const need = Math.min(MIN_OUTPUT_TOKENS, maxTokens);
        if (out < need) {
          const needUsd = price ? costOf({ input, output: need, cacheRead: 0, cacheWrite: 0 }, price) : null;
          const which = scopes
            .map((b, i) => ({
              b,
              refusal: refusalOf(b, spends[i] as Spend, { tokens: input + need, usd: needUsd }),
            }))
            .find((r) => r.refusal !== undefined);
          const scope = which?.b ?? (this.#applied.company as EffectiveBudget & { runId?: string });
          const isRun = scope.runId !== undefined;
          const message = isRun
            ? this.#spendCapMessage(which?.refusal?.includes(" tokens ") ? "tokens" : "usd")
            : (which?.refusal ?? `${budgetName(scope)} has no room for the next model call`);
          return {
            refused: message,
            scope: isRun ? ("run" as const) : scope.scope,
            agentId: isRun ? null : scope.agentId,
          };
        }
        const reservedUsd = price ? costOf({ input, output: out, cacheRead: 0, cacheWrite: 0 }, price) : null;
        await tx.reserveModelCall({
          id,
          companyId: this.#agent.companyId,
          agentId: this.#agent.id,
          runId: this.#runId,
          model,
          reservedTokens: input + out,
          reservedUsd,
        });
        return { out };
      },
      { isolation: "read committed" },
    );
    if (decided.refused !== undefined) {
      const agentId = decided.agentId ?? null;
      const budget: BudgetScope | undefined =
        decided.scope === "run"
          ? undefined
          : { scope: decided.scope as BudgetScope["scope"], companyId: this.#agent.companyId, agentId };
      // The run's own token or USD cap is a run cap, named as such; a company's or agent's budget is a budget.
      return this.#refuse(
        {
          reason: decided.scope === "run" ? "run_cap" : "budget",
          message: decided.refused,
          ...(budget ? { budget } : {}),
        },
        { scope: decided.scope, agentId },
      );
    }
    this.#modelCalls++;
    const entry: Reservation = { id, model };
    this.#reservations.push(entry);
    return { entry, maxTokens: decided.out as number };
  }

  async #refuse(
    stop: RunStop,
    where: { scope: "run" | BudgetScope["scope"]; agentId: string | null } = { scope: "run", agentId: null },
  ): Promise<never> {
    this.#stopWith(stop);
    await this.#store
      .insertActivity({
        companyId: this.#agent.companyId,
        agentId: this.#agent.id,
        runId: this.#runId,
        type: "budget.exhausted",
        data: {
          reason: stop.reason,
          message: stop.message,
          scope: where.scope,
          budgetAgentId: where.agentId,
        },
      })
      .catch(() => undefined);
    throw new Error(STOPPED_BY_BUDGET);
  }

  #stopWith(stop: RunStop): void {
    this.stop ??= stop;
  }

  /**
   * Counts a model call a harness made itself (its usage arrived): once the run's model-call cap is
   * reached the run is stopped (the harness is cancelled after this call).
   */
  noteHarnessModelCall(): void {
    this.#modelCalls++;
    const max = this.caps.maxModelCalls;
    if (max !== null && this.#modelCalls >= max)
      this.#stopWith({
        reason: "run_cap",
        message: `the run reached its cap of ${max} model calls; raise it with \`cadre budgets set --company ${this.#agent.companyId} --run-model-calls N\``,
      });
  }

  /** Counts a tool call the harness ran itself (tools not wrapped here). */
  noteToolUse(): void {
    this.#toolCalls++;
    const max = this.caps.maxToolCalls;
    if (max !== null && this.#toolCalls > max)
      this.#stopWith({
        reason: "run_cap",
        message: `the run reached its cap of ${max} tool calls; raise it with \`cadre budgets set --company ${this.#agent.companyId} --run-tool-calls N\``,
      });
  }

  /** Every call of this run is priced unknown: the endpoint's model under the declared id changed. */
  unpriceAll(): void {
    this.#unpriced = true;
  }

  /**
   * Settles the calls whose usage arrived, inside the transaction that records the run's usage.
   * A call with no reservation (a harness that calls the model itself) is recorded as it settles.
   */
  async settle(tx: StoreQueries, calls: readonly SettledCall[]): Promise<void> {
    // The transaction may run again on a conflict (PostgreSQL): nothing here changes this object
    // until `settled` is called after the commit. With no call to settle, this run's spend did not
    // change: nothing to warn about or stop on.
    this.#pendingSettled = 0;
    if (calls.length === 0) return;
    let next = 0;
    for (const { usage, servedModel } of calls) {
      const entry = this.#reservations[next];
      if (entry) next++;
      const empty = usage.input + usage.output + usage.cacheRead + usage.cacheWrite === 0;
      if (!entry && empty) continue;
      const requested = entry?.model ?? this.#agent.model;
      const served = entry?.servedModel ?? servedModel ?? requested;
      // A call served by another model than the one asked for is a drift (MC-6): what it cost is
      // not known from the declared model's price, so it is unknown, never a guess.
      const costUsd =
        served === requested && !this.#unpriced
          ? costOf(usage, priceAt(served, new Date().toISOString(), this.#prices))
          : null;
      let id: string;
      if (entry) id = entry.id;
      else {
        id = newId("call");
        await tx.reserveModelCall({
          id,
          companyId: this.#agent.companyId,
          agentId: this.#agent.id,
          runId: this.#runId,
          model: requested,
          reservedTokens: 0,
          reservedUsd: null,
        });
      }
      await tx.settleModelCall(id, { servedModel: served, usage, costUsd });
    }
    await this.#warnings(tx);
    this.#pendingSettled = next;
  }

  /** The settling transaction committed: its calls are no longer reserved here. */
  settled(): void {
    this.#reservations.splice(0, this.#pendingSettled);
    this.#pendingSettled = 0;
  }

  /** After settling: a warning once per budget and period at its threshold; a harness run past a limit is stopped. */
  async #warnings(tx: StoreQueries): Promise<void> {
    const scopes = [this.#applied.company, this.#applied.agent].filter(
      (b): b is EffectiveBudget => b !== undefined,
    );
    for (const b of scopes) {
      const spend = await spendOfBudget(tx, b);
      const key = `${b.scope}:${b.agentId ?? b.companyId}`;
      const exhausted = exhaustion(b, spend);
      if (exhausted && !this.stop) {
        // Used up by what the call cost: the run stops here (the next call is not sent; a harness
        // is cancelled), recorded once with the settlement.
        this.#stopWith({
          reason: "budget",
          message: exhausted,
          budget: { scope: b.scope, companyId: b.companyId, agentId: b.agentId },
        });
        await tx.insertActivity({
          companyId: this.#agent.companyId,
          agentId: this.#agent.id,
          runId: this.#runId,
          type: "budget.exhausted",
          data: { reason: "budget", message: exhausted, scope: b.scope, budgetAgentId: b.agentId },
        });
      }
      const fraction = Math.max(
        b.limitTokens ? spend.tokens / b.limitTokens : 0,
        b.limitUsd ? spend.usd / b.limitUsd : 0,
      );
      const unpricedUsd = b.limitUsd !== null && spend.unpricedCalls > 0;
      if (fraction < b.warnAt && !unpricedUsd) continue;
      const since = periodStart(b.period) ?? "";
      const earlier = await tx.listActivity(b.companyId, { type: "budget.warned" });
      if (earlier.some((a) => a.at >= since && (a.data as { key?: string }).key === key)) continue;
      await tx.insertActivity({
        companyId: b.companyId,
        agentId: b.agentId,
        runId: this.#runId,
        type: "budget.warned",
        data: {
          key,
          scope: b.scope,
          fraction,
          tokens: spend.tokens,
          usd: spend.usd,
          limitTokens: b.limitTokens,
          limitUsd: b.limitUsd,
          unpricedCalls: spend.unpricedCalls,
          message:
            fraction >= b.warnAt
              ? `${budgetName(b)} is at ${Math.round(fraction * 100)}% (warning at ${Math.round(b.warnAt * 100)}%)`
              : `${budgetName(b)} cannot be trusted: ${spend.unpricedCalls} model call(s) have no known price (their cost is unknown)`,
        },
      });
    }
    const run = this.#runScope();
    const runSpend = await tx.spendOf({ companyId: run.companyId, runId: this.#runId });
    const spent = exhaustion(run, runSpend);
    if (spent)
      this.#stopWith({
        reason: "run_cap",
        message: this.#spendCapMessage(spent.includes(" tokens ") ? "tokens" : "usd"),
      });
  }

  /** The run's own token or USD cap was reached: which, and how to raise it. */
  #spendCapMessage(kind: "tokens" | "usd"): string {
    const flag = kind === "tokens" ? "--run-tokens N" : "--run-usd X";
    const cap = kind === "tokens" ? `${this.caps.maxTokens} tokens` : usd(this.caps.maxUsd ?? 0);
    return `the run reached its cap of ${cap}; raise it with \`cadre budgets set --company ${this.#agent.companyId} ${flag}\``;
  }

  /**
   * The run has taken its wall-time cap: it is stopped (the caller cancels the session, which ends
   * the call in flight). Returns the stop, or undefined when code had stopped the run already.
   */
  wallTimeReached(): RunStop | undefined {
    if (this.stop) return undefined;
    const seconds = this.caps.maxWallSeconds;
    this.#stopWith({
      reason: "run_cap",
      message: `the run reached its cap of ${seconds} s of wall time; raise it with \`cadre budgets set --company ${this.#agent.companyId} --run-wall-seconds N\``,
    });
    return this.stop;
  }

  /**
   * Drops the reservations the run never settled, in its final transaction. A run stopped by an
   * exhausted company or agent budget did not finish its work: the wake reasons it took go back to
   * pending (OP-5), due again once the budget is raised or a new period starts, and the tasks it
   * was working are released to be resumed; the other queued reasons simply stay pending.
   */
  async finish(tx: StoreQueries): Promise<void> {
    await tx.releaseModelCalls(this.#runId);
    const stop = this.stop;
    if (stop?.reason === "budget" && stop.budget)
      await giveBackRunWork(
        tx,
        { id: this.#runId, companyId: this.#agent.companyId, agentId: this.#agent.id },
        "a budget stopped it",
      );
  }
}
