// One API read with its loading and error states, re-read on demand (`reload`) or when what it
// reads changes. A late answer for a read no longer shown is dropped. The answer's type is the
// endpoint's (the route's response schema).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { AnswerOf } from "@cadre/server/client";
import type { Api, CallInput, Endpoint } from "../api/client.js";

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

/** Reads `endpoint` with `input` (its path parameters, query); undefined input: nothing to read yet. */
export function useResource<K extends Endpoint>(
  api: Api,
  endpoint: K,
  input: CallInput<K> | undefined,
): Resource<AnswerOf<K>> {
  type T = AnswerOf<K>;
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(input !== undefined);
  const generation = useRef(0);
  const key = input === undefined ? undefined : JSON.stringify(input);
  const load = useCallback(() => {
    if (key === undefined) return;
    const mine = ++generation.current;
    setLoading(true);
    const call = api.call as (endpoint: K, input: CallInput<K>) => Promise<T>;
    call(endpoint, JSON.parse(key) as CallInput<K>).then(
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
