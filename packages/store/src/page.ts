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
    const col = sql.ref(sortColumn);
    q = q.where(
      sql<boolean>`(${col} > ${after.at} or (${col} = ${after.at} and ${sql.ref("id")} > ${after.id}))`,
    ) as Q;
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
    where: after ? ` and (${sortColumn} > ? or (${sortColumn} = ? and id > ?))` : "",
    params: after ? [after.at, after.at, after.id] : [],
    tail: ` order by ${sortColumn}, id${page?.limit !== undefined ? " limit ?" : ""}`,
    tailParams: page?.limit !== undefined ? [page.limit] : [],
  };
}
