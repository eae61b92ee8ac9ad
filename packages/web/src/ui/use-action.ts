// One operator action in flight: a second press while it runs does nothing, and the API's refusal
// (its one-line message, naming the field) is kept to be shown where the action was asked.
import { useState } from "preact/hooks";

export interface Action {
  busy: boolean;
  error: string | undefined;
  /** Runs `act`; true when it succeeded (the refusal is then cleared), false when it was refused. */
  run(act: () => Promise<unknown>): Promise<boolean>;
  clear(): void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  return {
    busy,
    error,
    clear: () => setError(undefined),
    async run(act) {
      if (busy) return false;
      setBusy(true);
      setError(undefined);
      try {
        await act();
        return true;
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
        return false;
      } finally {
        setBusy(false);
      }
    },
  };
}
