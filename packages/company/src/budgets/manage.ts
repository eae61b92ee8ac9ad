// Setting and showing budgets: one schema for the CLI and the API. A change writes one
// row in one transaction; bad input changes nothing and says what is allowed.
import { NotFoundError, UserInputError } from "@cadre/core";
import {
  BUDGET_PERIODS,
  type BudgetPeriod,
  type CompanyPrice,
  CompanyPriceSchema,
  Nullable,
  OneOf,
  type Static,
} from "@cadre/model";
import { checkInput } from "../input.js";
import { hardStopOf } from "./run-budget.js";
import type { BudgetRow, RunCaps, Store, StoreQueries } from "@cadre/store";
import { Type } from "typebox";
import {
  appliedBudgets,
  companyBudgetOf,
  DEFAULT_COMPANY_BUDGET,
  DEFAULT_RUN_CAPS,
  runCapsOf,
  type EffectiveBudget,
  periodStart,
  spendOfBudget,
} from "./policy.js";

const MAX_USD = 1_000_000;
const MAX_TOKENS = 2_000_000_000;

const cap = (max: number, description: string) =>
  Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: max, description })));

/** PUT /api/companies/{id}/budget and …/agents/{id}/budget; `cadre budgets set`. */
export const SetBudgetSchema = Type.Object(
  {
    usd: Type.Optional(
      Nullable(
        Type.Number({ minimum: 0, maximum: MAX_USD, description: "USD limit per period; null: none." }),
      ),
    ),
    tokens: cap(
      MAX_TOKENS,
      "Token limit per period (input + output + cache read + cache write); null: none.",
    ),
    none: Type.Optional(Type.Boolean({ description: "true: explicitly no budget (both limits removed)." })),
    period: Type.Optional(
      Type.Union(
        BUDGET_PERIODS.map((p) => Type.Literal(p)),
        { description: "month | total" },
      ),
    ),
    warnAt: Type.Optional(
      Type.Number({ exclusiveMinimum: 0, maximum: 1, description: "Warn at this fraction." }),
    ),
    runModelCalls: cap(100_000, "Model calls per run (company only)."),
    runToolCalls: cap(100_000, "Tool calls per run (company only)."),
    runTokens: cap(MAX_TOKENS, "Tokens per run (company only)."),
    runUsd: Type.Optional(
      Nullable(Type.Number({ minimum: 0, maximum: MAX_USD, description: "USD per run (company only)." })),
    ),
    runWallSeconds: cap(7 * 24 * 3600, "Seconds a run may take from its start (company only)."),
    // The company's own price of a model (company only), from `since`: it wins over the registry's;
    // an entry with the same model and date is replaced.
    price: Type.Optional(CompanyPriceSchema),
  },
  { additionalProperties: false },
);
export type SetBudgetInput = Static<typeof SetBudgetSchema>;

export const BudgetUseSchema = Type.Object(
  {
    scope: Type.Union([Type.Literal("company"), Type.Literal("agent")]),
    companyId: Type.String(),
    agentId: Nullable(Type.String()),
    limitUsd: Nullable(Type.Number()),
    limitTokens: Nullable(Type.Integer()),
    period: OneOf(BUDGET_PERIODS),
    periodStart: Nullable(Type.String()),
    warnAt: Type.Number(),
    /** False: no row was stored, the defaults apply. */
    stored: Type.Boolean(),
    used: Type.Object(
      {
        tokens: Type.Integer({ minimum: 0 }),
        usd: Type.Number({
          minimum: 0,
          description: "USD of calls with a known price (plus live reservations).",
        }),
        unpricedCalls: Type.Integer({
          minimum: 0,
          description: "Calls whose cost is unknown (not counted as 0).",
        }),
        calls: Type.Integer({ minimum: 0 }),
      },
      { additionalProperties: false },
    ),
    state: Type.Union([
      Type.Literal("ok"),
      Type.Literal("warning"),
      Type.Literal("exhausted"),
      Type.Literal("none"),
    ]),
  },
  { additionalProperties: false },
);
export type BudgetUse = Static<typeof BudgetUseSchema>;

const RunCapsSchema = Type.Object(
  {
    maxModelCalls: Nullable(Type.Integer()),
    maxToolCalls: Nullable(Type.Integer()),
    maxTokens: Nullable(Type.Integer()),
    maxUsd: Nullable(Type.Number()),
    maxWallSeconds: Nullable(Type.Integer()),
  },
  { additionalProperties: false },
);

export const BudgetReportSchema = Type.Object(
  {
    budget: BudgetUseSchema,
    /** For a company: its agents' own budgets. */
    agents: Type.Array(BudgetUseSchema),
    runCaps: RunCapsSchema,
    /** The company's own prices (`cadre budgets price`), which win over the registry's. */
    prices: Type.Array(CompanyPriceSchema),
  },
  { additionalProperties: false },
);
export type BudgetReport = Static<typeof BudgetReportSchema>;

async function useOf(q: StoreQueries, b: EffectiveBudget): Promise<BudgetUse> {
  const spend = await spendOfBudget(q, b);
  const fraction = Math.max(
    b.limitTokens ? spend.tokens / b.limitTokens : 0,
    b.limitUsd ? spend.usd / b.limitUsd : 0,
  );
  const none = b.limitTokens === null && b.limitUsd === null;
  const exhausted =
    (b.limitTokens !== null && spend.tokens >= b.limitTokens) ||
    (b.limitUsd !== null && spend.usd >= b.limitUsd) ||
    (!none && (await hardStopOf(q, b)) !== undefined);
  return {
    scope: b.scope,
    companyId: b.companyId,
    agentId: b.agentId,
    limitUsd: b.limitUsd,
    limitTokens: b.limitTokens,
    period: b.period,
    periodStart: periodStart(b.period) ?? null,
    warnAt: b.warnAt,
    stored: b.stored,
    used: { tokens: spend.tokens, usd: spend.usd, unpricedCalls: spend.unpricedCalls, calls: spend.calls },
    state: none
      ? "none"
      : exhausted
        ? "exhausted"
        : fraction >= b.warnAt || (b.limitUsd !== null && spend.unpricedCalls > 0)
          ? "warning"
          : "ok",
  };
}

/** A company's budget (with its agents' own), or one agent's, with what has been used. */
export async function budgetReport(
  store: Store,
  target: { companyId: string; agentId?: string },
): Promise<BudgetReport> {
  const company = await store.getCompany(target.companyId);
  if (!company) throw new NotFoundError(`company ${target.companyId} not found`);
  if (target.agentId !== undefined) {
    const agent = await store.getAgent(target.agentId);
    if (!agent || agent.companyId !== target.companyId)
      throw new NotFoundError(`agent ${target.agentId} not found in company ${target.companyId}`);
    const applied = await appliedBudgets(store, agent);
    const own: EffectiveBudget = applied.agent ?? {
      scope: "agent",
      companyId: agent.companyId,
      agentId: agent.id,
      limitUsd: null,
      limitTokens: null,
      period: "month",
      warnAt: DEFAULT_COMPANY_BUDGET.warnAt,
      stored: false,
    };
    return {
      budget: await useOf(store, own),
      agents: [],
      runCaps: applied.runCaps,
      prices: company.settings.prices ?? [],
    };
  }
  const rows = await store.listBudgets(target.companyId);
  const own = rows.find((r) => r.agentId === null);
  const agents: BudgetUse[] = [];
  for (const r of rows)
    if (r.agentId !== null)
      agents.push(
        await useOf(store, {
          scope: "agent",
          companyId: r.companyId,
          agentId: r.agentId,
          limitUsd: r.limitUsd,
          limitTokens: r.limitTokens,
          period: r.period,
          warnAt: r.warnAt,
          stored: true,
        }),
      );
  return {
    budget: await useOf(store, companyBudgetOf(target.companyId, own)),
    agents,
    runCaps: runCapsOf(own?.runCaps),
    prices: company.settings.prices ?? [],
  };
}

const MAX_PRICES = 200;

/** The company's prices with `price` in: it replaces an entry of the same model and date. */
function withPrice(prices: readonly CompanyPrice[], price: CompanyPrice): CompanyPrice[] {
  const rest = prices.filter((p) => !(p.model === price.model && p.since === price.since));
  if (rest.length >= MAX_PRICES)
    throw new UserInputError(`a company keeps at most ${MAX_PRICES} prices; it has ${rest.length}`, {
      price: "too-many",
    });
  return [...rest, price];
}

/** The default budget row of a new company (inside its creating transaction). */
export function defaultBudgetRow(companyId: string): Omit<BudgetRow, "updatedAt"> {
  return { companyId, agentId: null, ...DEFAULT_COMPANY_BUDGET, runCaps: { ...DEFAULT_RUN_CAPS } };
}

/** Sets a company's or an agent's budget; fields not given keep their value. One transaction. */
export async function setBudget(
  store: Store,
  target: { companyId: string; agentId?: string },
  raw: unknown,
): Promise<BudgetReport> {
  const input = checkInput("budget", SetBudgetSchema, raw);
  const limits = input.usd !== undefined || input.tokens !== undefined;
  if (input.none && limits)
    throw new UserInputError("--none removes both limits; it cannot be combined with --usd or --tokens", {
      none: "conflict",
    });
  const runFields = ["runModelCalls", "runToolCalls", "runTokens", "runUsd", "runWallSeconds"] as const;
  const agentRunCaps = runFields.filter((f) => input[f] !== undefined);
  if (target.agentId !== undefined && input.price !== undefined)
    throw new UserInputError("prices are set on the company (--company ID), not on an agent", {
      price: "company-only",
    });
  if (target.agentId !== undefined && agentRunCaps.length > 0)
    // Each run cap given is named, so an API caller sees which of its fields was refused.
    throw new UserInputError(
      `run caps are set on the company (--company ID), not on an agent: ${agentRunCaps.join(", ")}`,
      Object.fromEntries(agentRunCaps.map((f) => [f, "company-only"])),
    );
  if (
    !limits &&
    !input.none &&
    input.period === undefined &&
    input.warnAt === undefined &&
    input.price === undefined &&
    !runFields.some((f) => input[f] !== undefined)
  )
    throw new UserInputError(
      "nothing to set: give --usd X and/or --tokens N (or --none for explicitly no budget), --period month|total, --warn-at F, a run cap, or a price",
      { budget: "empty" },
    );
  await store.transaction(async (tx) => {
    const company = await tx.getCompany(target.companyId);
    if (!company) throw new NotFoundError(`company ${target.companyId} not found`);
    if (target.agentId !== undefined) {
      const agent = await tx.getAgent(target.agentId);
      if (!agent || agent.companyId !== target.companyId)
        throw new NotFoundError(`agent ${target.agentId} not found in company ${target.companyId}`);
    }
    const agentId = target.agentId ?? null;
    if (input.price !== undefined)
      await tx.updateCompanySettings(company.id, {
        ...company.settings,
        prices: withPrice(company.settings.prices ?? [], input.price),
      });
    const onlyPrice =
      input.price !== undefined &&
      !limits &&
      !input.none &&
      input.period === undefined &&
      input.warnAt === undefined &&
      !runFields.some((f) => input[f] !== undefined);
    // The change is an activity row (a domain event on the company's stream): a dashboard shows
    // the new budget state at once, and the wakes it held are due again from this moment.
    await tx.insertActivity({
      companyId: target.companyId,
      agentId,
      runId: null,
      type: "budget.changed",
      data: { scope: agentId === null ? "company" : "agent", budgetAgentId: agentId, change: input },
    });
    if (onlyPrice) return;
    const existing = await tx.getBudget(target.companyId, agentId);
    const base =
      existing ??
      (agentId === null
        ? { ...defaultBudgetRow(target.companyId), updatedAt: "" }
        : {
            companyId: target.companyId,
            agentId,
            limitUsd: null,
            limitTokens: null,
            period: "month" as BudgetPeriod,
            warnAt: DEFAULT_COMPANY_BUDGET.warnAt,
            runCaps: null,
            updatedAt: "",
          });
    const caps: RunCaps | null =
      agentId === null
        ? {
            ...runCapsOf(base.runCaps),
            ...(input.runModelCalls !== undefined ? { maxModelCalls: input.runModelCalls } : {}),
            ...(input.runToolCalls !== undefined ? { maxToolCalls: input.runToolCalls } : {}),
            ...(input.runTokens !== undefined ? { maxTokens: input.runTokens } : {}),
            ...(input.runUsd !== undefined ? { maxUsd: input.runUsd } : {}),
            ...(input.runWallSeconds !== undefined ? { maxWallSeconds: input.runWallSeconds } : {}),
          }
        : null;
    await tx.putBudget({
      companyId: target.companyId,
      agentId,
      limitUsd: input.none ? null : input.usd !== undefined ? input.usd : base.limitUsd,
      limitTokens: input.none ? null : input.tokens !== undefined ? input.tokens : base.limitTokens,
      period: input.period ?? base.period,
      warnAt: input.warnAt ?? base.warnAt,
      runCaps: caps,
    });
  });
  return budgetReport(store, target);
}
