// A whole list read from a paged list route (`{ items, nextCursor }`), page after page with
// `listAll`, with its loading and error states, re-read on demand (`reload`) or when what it reads
// changes. A late answer for a read no longer shown is dropped. A view that shows every item (an
// agent's keys, the thread with the CEO) reads this rather than the first page alone.
import type { CallArgs, ItemOf, ListEndpoint } from "@cadre/server/client";
import { type Api, type CallInput, listAll } from "../api/client.js";
import { type Resource, useRead } from "./use-resource.js";

/** Reads every item of `endpoint` with `input` (its path parameters, query); undefined input: nothing to read yet. */
export function useList<K extends ListEndpoint>(
  api: Api,
  endpoint: K,
  input: CallInput<K> | undefined,
): Resource<ItemOf<K>[]> {
  return useRead(input, (value) => listAll(api, endpoint, ...([value] as unknown as CallArgs<K>)), [
    api,
    endpoint,
  ]);
}
