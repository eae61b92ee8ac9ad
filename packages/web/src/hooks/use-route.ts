// The current route, re-read from the address bar on every render and on each hash change.
import { useEffect, useState } from "preact/hooks";
import { parseRoute, type Route } from "../route.js";

export function useRoute(): Route {
  const [, setTick] = useState(0);
  useEffect(() => {
    const onHash = () => setTick((t) => t + 1);
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, []);
  return parseRoute(location.hash);
}
