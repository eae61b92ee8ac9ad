// One decision on a pending approval, with an optional note. A conflict (someone decided first)
// is reported as the API words it.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Approval, DecisionResult } from "../../api/types.js";

const ACTIONS = [
  { path: "approve", label: "Approve", tone: "primary" },
  { path: "reject", label: "Reject", tone: "danger" },
  { path: "request-revision", label: "Request revision", tone: "" },
] as const;

export function DecisionForm({
  api,
  approval,
  onDecided,
}: {
  api: Api;
  approval: Approval;
  onDecided(r: DecisionResult): void;
}) {
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const noteId = `note-${approval.id}`;
  const decide = async (path: "approve" | "reject" | "request-revision") => {
    setBusy(true);
    setError(undefined);
    try {
      onDecided(
        await api.call(`POST /api/approvals/{id}/${path}`, {
          params: { id: approval.id },
          body: note.trim() ? { note: note.trim() } : {},
        }),
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="decision" onSubmit={(e) => e.preventDefault()}>
      <label for={noteId}>Note to the CEO (optional)</label>
      <textarea
        id={noteId}
        rows={2}
        maxLength={2000}
        value={note}
        onInput={(e) => setNote(e.currentTarget.value)}
      />
      <div class="actions">
        {ACTIONS.map((a) => (
          <button
            key={a.path}
            type="button"
            class={a.tone}
            disabled={busy}
            onClick={() => void decide(a.path)}
          >
            {a.label}
          </button>
        ))}
      </div>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
