// Moving an agent to another model, or to another connector (PATCH /api/agents/{id}/model): the
// connector picker lists the company's connectors, the model picker that connector's enabled
// models (a declared one says so). The server decides whether the move can go through now.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Agent, Connector } from "../../api/types.js";
import { ActionError } from "../../ui/action-error.js";
import { useAction } from "../../ui/use-action.js";

export function AgentModelForm({
  api,
  agent,
  connectors,
  onDone,
}: {
  api: Api;
  agent: Agent;
  connectors: Connector[];
  onDone(): void;
}) {
  const [connectorId, setConnectorId] = useState(agent.connectorId);
  const [model, setModel] = useState(agent.model);
  const [said, setSaid] = useState<string | undefined>(undefined);
  const action = useAction();
  const connector = connectors.find((c) => c.id === connectorId);
  const models = connector?.models ?? [];
  const ids = `${agent.id}-move`;
  return (
    <form
      aria-label={`Move ${agent.name} to another model`}
      onSubmit={(e) => {
        e.preventDefault();
        setSaid(undefined);
        void action
          .run(async () => {
            const change = await api.call("PATCH /api/agents/{id}/model", {
              params: { id: agent.id },
              body: { model, ...(connectorId !== agent.connectorId ? { connectorId } : {}) },
            });
            setSaid(
              change.changed
                ? `${agent.name} now runs on ${change.agent.connectorId} · ${change.agent.model}.`
                : `${agent.name} already runs on ${change.agent.connectorId} · ${change.agent.model}.`,
            );
          })
          .then((ok) => ok && onDone());
      }}
    >
      <label for={`${ids}-connector`}>Connector</label>
      <select
        id={`${ids}-connector`}
        value={connectorId}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setConnectorId(next);
          setModel(connectors.find((c) => c.id === next)?.models[0]?.id ?? "");
        }}
      >
        {connectors.map((c) => (
          <option key={c.id} value={c.id}>
            {c.id} ({c.kind}){c.ready ? "" : " — not ready"}
          </option>
        ))}
      </select>
      <label for={`${ids}-model`}>Model</label>
      <select id={`${ids}-model`} value={model} onChange={(e) => setModel(e.currentTarget.value)}>
        {!models.some((m) => m.id === model) && <option value={model}>{model || "Choose a model"}</option>}
        {models.map((m) => (
          <option key={m.id} value={m.id}>
            {m.id}
            {m.declared ? " (declared)" : ""}
          </option>
        ))}
      </select>
      <div class="actions">
        <button type="submit" aria-disabled={action.busy}>
          Move to this model
        </button>
      </div>
      {said && (
        <p class="alert ok" role="status">
          {said}
        </p>
      )}
      <ActionError error={action.error} />
    </form>
  );
}
