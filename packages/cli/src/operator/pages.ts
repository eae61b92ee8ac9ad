// Pages of the CLI's lists: `--limit N` and `--after CURSOR` (a previous page's next cursor), read the
// same way whether the list comes from the store or a server, and the line that says how to get
// the next page.
import { decodeCursor, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Page, pageOfRows } from "@cadre/store";
import type { AgentView } from "@cadre/server/views";
import { type CliIO, UsageError } from "../io.js";
import type { ListPage, OperatorPort } from "./port.js";

/** The options every paged list command takes (node:util parseArgs). */
export const PAGE_OPTIONS = {
  limit: { type: "string" },
  after: { type: "string" },
} as const;

export const PAGE_HELP = `  --limit N        at most N rows (1..${MAX_PAGE_LIMIT}, default ${DEFAULT_PAGE_LIMIT})
  --after CURSOR   the page after CURSOR (the next-page cursor a previous page printed)`;

/** The page the flags ask for; a usage error naming the flag when one is malformed. */
export function pageFromFlags(command: string, values: { limit?: string; after?: string }): ListPage {
  const page: ListPage = {};
  if (values.limit !== undefined) {
    if (!/^\d{1,9}$/.test(values.limit) || Number(values.limit) < 1 || Number(values.limit) > MAX_PAGE_LIMIT)
      throw new UsageError(
        `${command}: --limit must be a whole number from 1 to ${MAX_PAGE_LIMIT} (got "${values.limit}")`,
      );
    page.limit = Number(values.limit);
  }
  if (values.after !== undefined) {
    if (decodeCursor(values.after) === undefined)
      throw new UsageError(
        `${command}: --after must be the next-page cursor a previous page printed (got "${values.after}")`,
      );
    page.after = values.after;
  }
  return page;
}

/** The API's query parameters for a page. */
export function pageQuery(page: ListPage | undefined): { limit?: number; after?: string } {
  return {
    ...(page?.limit !== undefined ? { limit: page.limit } : {}),
    ...(page?.after !== undefined ? { after: page.after } : {}),
  };
}

/** What the store is asked for (one row more than the page, to know whether another follows). */
export function storePage(page: ListPage | undefined): { limit: number; store: Page } {
  const limit = page?.limit ?? DEFAULT_PAGE_LIMIT;
  const after = page?.after !== undefined ? decodeCursor(page.after) : undefined;
  if (page?.after !== undefined && after === undefined)
    throw new UsageError(
      `--after must be the next-page cursor a previous page printed (got "${page.after}")`,
    );
  return { limit, store: { limit: limit + 1, ...(after ? { after } : {}) } };
}

export { pageOfRows };

/** Every agent of a company, page after page (to name agents by id, or find one by name). */
export async function allAgents(
  port: OperatorPort,
  query: { companyId?: string; all?: boolean },
): Promise<AgentView[]> {
  const agents: AgentView[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await port.listAgents({
      ...query,
      page: { limit: MAX_PAGE_LIMIT, ...(after !== undefined ? { after } : {}) },
    });
    agents.push(...page.items);
    if (page.nextCursor === null) return agents;
    after = page.nextCursor;
  }
}

/**
 * After a page that has a next one, the command that reads it: the same arguments with `--after`
 * the next cursor. On stdout after the text; on stderr with --json, so stdout stays one JSON value.
 */
export function printNextPage(
  io: Pick<CliIO, "out" | "err">,
  values: { json?: boolean },
  nextCursor: string | null,
  command: string,
  args: readonly string[],
): void {
  if (nextCursor === null) return;
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--after") i++;
    else if (!arg.startsWith("--after=")) kept.push(arg);
  }
  const line = `more: cadre ${[command, ...kept, "--after", nextCursor].join(" ")}\n`;
  if (values.json) io.err(line);
  else io.out(line);
}
