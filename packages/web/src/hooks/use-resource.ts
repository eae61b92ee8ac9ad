// One API read with its loading and error states, re-read on demand (`reload`) or when its path
// changes. A late answer for a path no longer shown is dropped.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import type { Api } from "../api/client.js";

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): void;
}

export function useResource<T>(api: Api, path: string | undefined): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(path !== undefined);
  const generation = useRef(0);
  const load = useCallback(() => {
    if (path === undefined) return;
    const mine = ++generation.current;
    setLoading(true);
    api.get<T>(path).then(
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
  }, [api, path]);
  useEffect(() => {
    setData(undefined);
    load();
  }, [load]);
  return { data, error, loading, reload: load };
}
