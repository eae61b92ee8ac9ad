// Everything the operator does to one agent, under its row in the team table: move it to another
// model or connector, its keys, and terminating it (asked once more; the CEO cannot be).
import type { Api } from "../../api/client.js";
import type { Agent, Connector } from "../../api/types.js";
import { ActionError } from "../../ui/action-error.js";
import { ConfirmButton } from "../../ui/confirm-button.js";
import { useAction } from "../../ui/use-action.js";
import { AgentKeys } from "./agent-keys.js";
import { AgentModelForm } from "./agent-model-form.js";

export function AgentPanel({
  api,
  agent,
  connectors,
  onChanged,
}: {
  api: Api;
  agent: Agent;
  connectors: Connector[];
  onChanged(): void;
}) {
  const terminate = useAction();
  return (
    <div class="agent-panel" data-testid="agent-panel">
      <AgentModelForm api={api} agent={agent} connectors={connectors} onDone={onChanged} />
      <AgentKeys api={api} agent={agent} />
      {!agent.isCeo && (
        <div class="actions">
          <ConfirmButton
            label={`Terminate ${agent.name}`}
            question={`Terminate ${agent.name}? Its keys are revoked and it takes no more work.`}
            confirmLabel="Terminate"
            busy={terminate.busy}
            onConfirm={() =>
              void terminate
                .run(() => api.call("DELETE /api/agents/{id}", { params: { id: agent.id } }))
                .then((ok) => ok && onChanged())
            }
          />
        </div>
      )}
      <ActionError error={terminate.error} />
    </div>
  );
}
