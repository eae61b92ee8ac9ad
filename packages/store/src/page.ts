// Keyset pages of a list: rows in a stable order (a sort column, then id) after a given row, up to a
// limit. The position is the last row's sort value and id, not an offset, so a page costs the same
// wherever it starts and rows written meanwhile neither repeat nor go missing.
import { sql, type SelectQueryBuilder } from "kysely";
import type { Page } from "./types.js";

/** The query restricted to the page: rows after `page.after` in (sortColumn, id) order, at most `page.limit`. */
export function paged<Q extends SelectQueryBuilder<any, any, any>>(
  query: Q,
  sortColumn: string,
  page: Page | undefined,
): Q {
  let q = query.orderBy(sortColumn).orderBy("id") as Q;
  const after = page?.after;
  if (after !== undefined) {
    // A row-value comparison, not "a > x or (a = x and id > y)": both dialects read it as a range
    // of the (…, sort column, id) index and start the page there, instead of scanning from the
    // list's first row (100 times slower at 100,000 rows).
    q = q.where(sql<boolean>`(${sql.ref(sortColumn)}, ${sql.ref("id")}) > (${after.at}, ${after.id})`) as Q;
  }
  if (page?.limit !== undefined) q = q.limit(page.limit) as Q;
  return q;
}

/** The raw-SQL form of `paged` for the prepared statements: the condition, the tail and their parameters. */
export function pagedSql(
  sortColumn: string,
  page: Page | undefined,
): { where: string; tail: string; params: unknown[]; tailParams: unknown[] } {
  const after = page?.after;
  return {
    where: after ? ` and (${sortColumn}, id) > (?, ?)` : "",
    params: after ? [after.at, after.id] : [],
    tail: ` order by ${sortColumn}, id${page?.limit !== undefined ? " limit ?" : ""}`,
    tailParams: page?.limit !== undefined ? [page.limit] : [],
  };
}

/** A list page's length when none is asked for, and the most one may ask for. */
export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 500;

/**
 * The cursor callers pass back to read the next page: a row's position (sort value and id), opaque
 * to them. The API and the CLI's local adapter write and read the same cursors.
 */
export function encodeCursor(at: string, id: string): string {
  return Buffer.from(JSON.stringify([at, id]), "utf8").toString("base64url");
}

/** The position a cursor names; undefined when it is not a cursor this code wrote. */
export function decodeCursor(cursor: string): { at: string; id: string } | undefined {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(parsed) &&
      parsed.length === 2 &&
      typeof parsed[0] === "string" &&
      typeof parsed[1] === "string"
    )
      return { at: parsed[0], id: parsed[1] };
  } catch {
    // not JSON: not a cursor
  }
  return undefined;
}

/**
 * One page of the rows read with `limit + 1` (the extra row says another page follows): the rows
 * shown and the cursor after the last of them, or null when this page is the last.
 */
export function pageOfRows<R extends { id: string }>(
  rows: readonly R[],
  limit: number,
  at: (row: R) => string,
): { rows: R[]; nextCursor: string | null } {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return { rows: shown, nextCursor: rows.length > limit && last ? encodeCursor(at(last), last.id) : null };
}
