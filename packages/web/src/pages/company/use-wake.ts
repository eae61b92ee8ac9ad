// Waking an agent (POST /api/agents/{id}/wake): which wake is in flight, and the API's refusal
// when there is one (governance, a connector that is not ready, …), shown where the button is.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { WakeStarted, WakeTrigger } from "../../api/types.js";

export interface Wake {
  /** The agent whose wake is being started. */
  busy: string | undefined;
  error: { agentId: string; trigger: WakeTrigger | undefined; message: string } | undefined;
  start(agentId: string, trigger?: WakeTrigger): Promise<void>;
}

export function useWake(api: Api, onStarted: (w: WakeStarted, agentId: string) => void): Wake {
  const [busy, setBusy] = useState<string | undefined>(undefined);
  const [error, setError] = useState<Wake["error"]>(undefined);
  return {
    busy,
    error,
    async start(agentId, trigger) {
      setBusy(agentId);
      setError(undefined);
      try {
        onStarted(
          await api.call("POST /api/agents/{id}/wake", {
            params: { id: agentId },
            body: trigger ? { trigger } : {},
          }),
          agentId,
        );
      } catch (e) {
        setError({ agentId, trigger, message: e instanceof Error ? e.message : String(e) });
      } finally {
        setBusy(undefined);
      }
    },
  };
}
