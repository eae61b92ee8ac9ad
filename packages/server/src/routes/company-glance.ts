// A company at a glance, for the companies list: the CEO's mode, the decisions waiting for the
// operator, the runs in progress and the spend since the start of the caller's day. One schema
// (CompanyListItemSchema) for every caller of GET /api/companies, so a list never needs one read
// per company to say which one wants attention.
import { UserInputError } from "@cadre/core";
import { loadCompanySummary } from "@cadre/company";
import { CEO_MODES, OneOf, type Static } from "@cadre/model";
import type { CompanyRow, StoreQueries } from "@cadre/store";
import { Type } from "typebox";
import { companySummaryView, CompanyViewSchema } from "./views.js";

const strict = { additionalProperties: false } as const;

export const CompanyGlanceSchema = Type.Object(
  {
    ceoMode: OneOf(CEO_MODES, { description: "The CEO's mode (resolved in code from the company's state)." }),
    pendingDecisions: Type.Integer({ minimum: 0, description: "Approvals waiting for the operator." }),
    runningRuns: Type.Integer({ minimum: 0, description: "Runs in progress." }),
    spentToday: Type.Object(
      {
        since: Type.String({ description: "ISO-8601 time the spend is counted from (the `since` query)." }),
        usd: Type.Number({ minimum: 0, description: "USD of priced calls (and reservations) since then." }),
        tokens: Type.Integer({ minimum: 0 }),
        unpricedCalls: Type.Integer({
          minimum: 0,
          description: "Calls with no known price: their USD is unknown, not 0.",
        }),
      },
      strict,
    ),
  },
  strict,
);
export type CompanyGlance = Static<typeof CompanyGlanceSchema>;

export const CompanyListItemSchema = Type.Object(
  { ...CompanyViewSchema.properties, glance: CompanyGlanceSchema },
  strict,
);
export type CompanyListItemView = Static<typeof CompanyListItemSchema>;

export const GLANCE_QUERY = {
  since: "ISO-8601 time from which today's spend is counted (the caller's midnight); default 00:00 UTC today",
} as const;

/** The `since` query: an ISO time, or the start of the current UTC day. A 400 naming it when malformed. */
export function glanceSince(raw: string | undefined, now = new Date()): string {
  if (raw === undefined)
    return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  const t = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(t))
    throw new UserInputError(
      `since must be an ISO-8601 time such as 2026-01-31T23:00:00.000Z (got "${raw}")`,
      {
        since: "an ISO-8601 time",
      },
    );
  return new Date(t).toISOString();
}

export async function companyListItem(
  q: StoreQueries,
  company: CompanyRow,
  since: string,
): Promise<CompanyListItemView> {
  const [summary, pending, running, spend] = await Promise.all([
    loadCompanySummary(q, company.id),
    q.listApprovals(company.id, { status: "pending" }),
    q.listRuns({ companyId: company.id, status: "running" }),
    q.spendOf({ companyId: company.id, since }),
  ]);
  return {
    ...companySummaryView(company),
    glance: {
      ceoMode: summary.mode,
      pendingDecisions: pending.length,
      runningRuns: running.length,
      spentToday: { since, usd: spend.usd, tokens: spend.tokens, unpricedCalls: spend.unpricedCalls },
    },
  };
}
