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

/**
 * One read with its loading and error states: `read` runs with `input` (parsed from its JSON key,
 * so a new object of the same value reads nothing again) whenever the key or `deps` change, and on
 * `reload`. A late answer for a read no longer shown is dropped. Undefined input: nothing to read yet.
 */
export function useRead<T>(
  input: unknown,
  read: (input: unknown) => Promise<T>,
  deps: readonly unknown[],
): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(input !== undefined);
  const generation = useRef(0);
  const key = input === undefined ? undefined : JSON.stringify(input);
  const load = useCallback(() => {
    if (key === undefined) return;
    const mine = ++generation.current;
    setLoading(true);
    read(JSON.parse(key)).then(
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
  }, [...deps, key]);
  useEffect(() => {
    setData(undefined);
    load();
  }, [load]);
  return { data, error, loading, reload: load };
}

/** Reads `endpoint` with `input` (its path parameters, query); undefined input: nothing to read yet. */
export function useResource<K extends Endpoint>(
  api: Api,
  endpoint: K,
  input: CallInput<K> | undefined,
): Resource<AnswerOf<K>> {
  const call = api.call as (endpoint: K, input: CallInput<K>) => Promise<AnswerOf<K>>;
  return useRead(input, (value) => call(endpoint, value as CallInput<K>), [api, endpoint]);
}
