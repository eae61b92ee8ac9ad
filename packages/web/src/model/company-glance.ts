// What the companies list says of each company at a glance (the server's `glance`): its CEO's mode,
// what waits for the operator, what runs, and today's spend — a spend with unpriced calls is never
// shown as a plain figure (it is at least that much, or unknown).
import type { CompanyGlance } from "@cadre/server";
import { formatCost, formatTokens } from "./format.js";

/** The start of the reader's day, as the API's `since` (the list counts today's spend from it). */
export function localMidnight(now = new Date()): string {
  return new Date(now.getFullYear(), now.getMonth(), now.getDate()).toISOString();
}

export function spendToday(g: CompanyGlance): string {
  const s = g.spentToday;
  if (s.tokens === 0) return "nothing spent today";
  const usd =
    s.unpricedCalls === 0 ? formatCost(s.usd) : s.usd > 0 ? `at least ${formatCost(s.usd)}` : "unknown $";
  return `${usd} today (${formatTokens(s.tokens)} tokens)`;
}

/** The glance's facts that ask for the operator, first: decisions, then running work. */
export function glanceFacts(g: CompanyGlance): { text: string; tone: "warn" | "info" | "muted" }[] {
  return [
    g.pendingDecisions > 0
      ? {
          text: `${g.pendingDecisions} decision${g.pendingDecisions === 1 ? "" : "s"} waiting for you`,
          tone: "warn" as const,
        }
      : { text: "no decision waiting", tone: "muted" as const },
    g.runningRuns > 0
      ? { text: `${g.runningRuns} run${g.runningRuns === 1 ? "" : "s"} in progress`, tone: "info" as const }
      : { text: "nothing running", tone: "muted" as const },
    { text: spendToday(g), tone: "muted" as const },
  ];
}
