// A whole list read from a paged list route (`{ items, nextCursor }`), page after page with
// `listAll`, with its loading and error states, re-read on demand (`reload`) or when what it reads
// changes. A late answer for a read no longer shown is dropped. A view that shows every item (an
// agent's keys, the thread with the CEO) reads this rather than the first page alone.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { CallArgs, ItemOf, ListEndpoint } from "@cadre/server/client";
import { type Api, type CallInput, listAll } from "../api/client.js";
import type { Resource } from "./use-resource.js";

/** Reads every item of `endpoint` with `input` (its path parameters, query); undefined input: nothing to read yet. */
export function useList<K extends ListEndpoint>(
  api: Api,
  endpoint: K,
  input: CallInput<K> | undefined,
): Resource<ItemOf<K>[]> {
  type T = ItemOf<K>[];
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(input !== undefined);
  const generation = useRef(0);
  const key = input === undefined ? undefined : JSON.stringify(input);
  const load = useCallback(() => {
    if (key === undefined) return;
    const mine = ++generation.current;
    setLoading(true);
    const args = [JSON.parse(key)] as unknown as CallArgs<K>;
    listAll(api, endpoint, ...args).then(
      (value) => {
        if (mine !== generation.current) return;
        setData(value);
        setError(undefined);
        setLoading(false);
      },
      (e: unknown) => {
        if (mine !== generation.current) return;
        setError(e instanceof Error ? e.message : String(e));
        setLoading(false);
      },
    );
  }, [api, endpoint, key]);
  useEffect(() => {
    setData(undefined);
    load();
  }, [load]);
  return { data, error, loading, reload: load };
}
