// Stopping a running run (POST /api/runs/{id}/stop), asked once more: it ends cancelled, as
// Ctrl-C ends a run in the terminal, and the usage of the calls it made is kept.
import type { Api } from "../../api/client.js";
import { ActionError } from "../../ui/action-error.js";
import { ConfirmButton } from "../../ui/confirm-button.js";
import { useAction } from "../../ui/use-action.js";

export function StopRun({ api, runId, onStopped }: { api: Api; runId: string; onStopped?(): void }) {
  const stop = useAction();
  return (
    <span class="stop-run">
      <ConfirmButton
        label="Stop"
        question="Stop this run? It ends cancelled; the usage so far is kept."
        confirmLabel="Stop the run"
        busy={stop.busy}
        onConfirm={() =>
          void stop
            .run(() => api.call("POST /api/runs/{id}/stop", { params: { id: runId } }))
            .then((ok) => ok && onStopped?.())
        }
      />
      {stop.busy && <span class="muted"> Stopping…</span>}
      <ActionError error={stop.error} />
    </span>
  );
}
