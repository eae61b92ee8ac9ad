// Pages of the list routes: `?limit=N&after=CURSOR` in, `{ items, nextCursor }` out. The cursor is the
// last row's position in the list's order (its sort value and id), opaque to callers: pass the
// previous page's nextCursor as `after`; null means the list has no more. A limit above the maximum
// is refused (not cut down silently), so a caller never mistakes a short page for the whole list.
import { UserInputError } from "@cadre/core";
import type { TSchema } from "@cadre/model";
import { decodeCursor, DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT, type Page, pageOfRows } from "@cadre/store";
import type { Context } from "hono";
import { Type } from "typebox";

/** The query parameters every list route documents. */
export const PAGE_QUERY = {
  limit: `1..${MAX_PAGE_LIMIT} (default ${DEFAULT_PAGE_LIMIT})`,
  after: "the nextCursor of the previous page",
} as const;

export const PageSchema = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      items: Type.Array(item, { description }),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: "Pass as `after` for the next page; null when this page is the last.",
      }),
    },
    { additionalProperties: false },
  );

export interface PageRequest {
  limit: number;
  /** What the store is asked for: one row more than the limit, to know whether another page follows. */
  store: Page;
}

/** The page a list request asks for; a 400 naming the parameter when limit or after is malformed. */
export function pageRequest(c: Context): PageRequest {
  const raw = c.req.query("limit");
  let limit = DEFAULT_PAGE_LIMIT;
  if (raw !== undefined) {
    if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_PAGE_LIMIT)
      throw new UserInputError(`limit must be a whole number from 1 to ${MAX_PAGE_LIMIT} (got "${raw}")`, {
        limit: `1..${MAX_PAGE_LIMIT}`,
      });
    limit = Number(raw);
  }
  const cursor = c.req.query("after");
  if (cursor === undefined) return { limit, store: { limit: limit + 1 } };
  const after = decodeCursor(cursor);
  if (!after)
    throw new UserInputError("after must be the nextCursor of a previous page of this list", {
      after: "a nextCursor this list answered",
    });
  return { limit, store: { limit: limit + 1, after } };
}

/** The answer: at most `limit` rows as views, and the cursor after the last when more follow. */
export async function pageAnswer<R extends { id: string }, V>(
  rows: readonly R[],
  request: PageRequest,
  at: (row: R) => string,
  view: (row: R) => V | Promise<V>,
): Promise<{ items: V[]; nextCursor: string | null }> {
  const page = pageOfRows(rows, request.limit, at);
  return { items: await Promise.all(page.rows.map(view)), nextCursor: page.nextCursor };
}
