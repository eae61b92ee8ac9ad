// An agent's keys: the list (label, when minted, revoked or not), minting one — its token is
// shown once, here, with a copy button — and revoking one (asked once more: whatever uses it
// stops working at once).
import { useEffect, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Agent } from "../../api/types.js";
import { useList } from "../../hooks/use-list.js";
import { ActionError } from "../../ui/action-error.js";
import { ConfirmButton } from "../../ui/confirm-button.js";
import { useAction } from "../../ui/use-action.js";
import { formatTime } from "../../model/format.js";

export function AgentKeys({ api, agent }: { api: Api; agent: Agent }) {
  // Every page of the list: an agent's run keys alone can fill more than one.
  const keys = useList(api, "GET /api/agents/{id}/keys", { params: { id: agent.id } });
  const [label, setLabel] = useState("");
  const [minted, setMinted] = useState<{ label: string; token: string } | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const action = useAction();
  useEffect(() => setCopied(false), [minted]);
  const mint = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const key = await api.call("POST /api/agents/{id}/keys", {
        params: { id: agent.id },
        body: label.trim() ? { label } : {},
      });
      setMinted({ label: key.label, token: key.token });
      setLabel("");
      keys.reload();
    });
  };
  const revoke = (keyId: string) =>
    void action.run(async () => {
      await api.call("DELETE /api/agents/{id}/keys/{keyId}", { params: { id: agent.id, keyId } });
      keys.reload();
    });
  const open = (keys.data ?? []).filter((k) => k.revokedAt === null && k.runId === null);
  return (
    <div class="agent-keys" data-testid="agent-keys">
      <h3>Keys</h3>
      {open.length === 0 && <p class="muted">No key of its own.</p>}
      <ul>
        {open.map((k) => (
          <li key={k.id} data-testid="agent-key">
            {k.label || "unlabelled"} <span class="muted">minted {formatTime(k.createdAt)}</span>{" "}
            <ConfirmButton
              label="Revoke"
              question={`Revoke "${k.label || "unlabelled"}"? Whatever uses it stops working now.`}
              confirmLabel="Revoke the key"
              busy={action.busy}
              onConfirm={() => revoke(k.id)}
            />
          </li>
        ))}
      </ul>
      {minted && (
        <div class="alert ok minted" role="status" data-testid="minted-key">
          <p>Key {minted.label ? `"${minted.label}"` : ""} minted. Its token is shown only now: copy it.</p>
          <code data-testid="minted-token">{minted.token}</code>{" "}
          <button
            type="button"
            onClick={() =>
              void navigator.clipboard.writeText(minted.token).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {copied ? "Copied" : "Copy"}
          </button>{" "}
          <button type="button" onClick={() => setMinted(undefined)}>
            Done
          </button>
        </div>
      )}
      <form aria-label={`Mint a key for ${agent.name}`} onSubmit={mint}>
        <label for={`${agent.id}-key-label`}>Label (what the key is for)</label>
        <input id={`${agent.id}-key-label`} value={label} onInput={(e) => setLabel(e.currentTarget.value)} />
        <div class="actions">
          <button type="submit" aria-disabled={action.busy}>
            Mint a key
          </button>
        </div>
      </form>
      <ActionError error={action.error ?? keys.error} />
    </div>
  );
}
