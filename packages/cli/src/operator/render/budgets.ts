// `cadre budgets show|set`, rendered once for both adapters.
import { type BudgetReport, type BudgetUse, usd } from "@cadre/company";

function line(u: BudgetUse): string {
  const whose = u.scope === "company" ? `company ${u.companyId}` : `agent ${u.agentId}`;
  if (u.state === "none")
    return `${whose}: no budget (explicitly none); used ${u.used.tokens} tokens, ${usd(u.used.usd)}`;
  const limits = [
    u.limitUsd !== null ? `${usd(u.used.usd)} of ${usd(u.limitUsd)}` : undefined,
    u.limitTokens !== null ? `${u.used.tokens} of ${u.limitTokens} tokens` : `${u.used.tokens} tokens`,
  ].filter(Boolean);
  const unpriced = u.used.unpricedCalls > 0 ? `, ${u.used.unpricedCalls} call(s) of unknown cost` : "";
  return `${whose}: ${limits.join(", ")}${unpriced} — ${u.state} (${u.period === "month" ? `month from ${u.periodStart}` : "total"}, warn at ${Math.round(u.warnAt * 100)}%${u.stored ? "" : ", defaults"})`;
}

export function budgetText(report: BudgetReport): string {
  const c = report.runCaps;
  const or = (v: number | null, unit: string) => (v === null ? `no ${unit} cap` : `${v} ${unit}`);
  return [
    `budget     ${line(report.budget)}`,
    ...report.agents.map((a) => `  agent    ${line(a)}`),
    `run caps   ${or(c.maxModelCalls, "model calls")}, ${or(c.maxToolCalls, "tool calls")}, ${or(c.maxTokens, "tokens")}, ${c.maxUsd === null ? "no USD cap" : usd(c.maxUsd)}, ${c.maxWallSeconds === null ? "no wall-time cap" : `${c.maxWallSeconds} s wall time`}`,
    ...report.prices.map(
      (p) =>
        `price      ${p.model} from ${p.since}: $${p.input} input, $${p.output} output, $${p.cacheRead} cache read, $${p.cacheWrite} cache write per million tokens (the company's own)`,
    ),
  ]
    .map((l) => `${l}\n`)
    .join("");
}

/** What a new company's operator is told once its default budget is shown. */
export function budgetHint(companyId: string): string {
  return `change it: npx cadre budgets set --company ${companyId} --usd X (or --tokens N, or --none for no budget)\n`;
}
