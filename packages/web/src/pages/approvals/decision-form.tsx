// One decision on a pending approval, with an optional note, and — before it is made — what each
// decision will do to the CEO's mode (the server's `modeIfDecided`, from the mode function it
// decides with). The buttons are never disabled under the pointer or the keyboard (a disabled
// button drops focus to the page): a second press while one decision is in flight does nothing.
// A conflict (someone decided first) is reported as the API words it.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Approval, CeoMode, DecisionResult } from "../../api/types.js";
import { notAllowed, useMe } from "../../session/permissions.js";

const ACTIONS = [
  { path: "approve", label: "Approve", tone: "primary" },
  { path: "reject", label: "Reject", tone: "danger" },
  { path: "request-revision", label: "Request revision", tone: "" },
] as const;

export function DecisionForm({
  api,
  approval,
  mode,
  onDecided,
}: {
  api: Api;
  approval: Approval;
  /** The CEO's mode now. */
  mode: CeoMode | undefined;
  onDecided(r: DecisionResult): void;
}) {
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const me = useMe();
  const noteId = `note-${approval.id}`;
  const effectsId = `effects-${approval.id}`;
  const effects = approval.modeIfDecided;
  const decide = async (path: "approve" | "reject" | "request-revision") => {
    if (busy) return;
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
  if (!me.may.act)
    return (
      <p class="muted" data-testid="decision-not-allowed">
        {notAllowed(me, "act")}
      </p>
    );
  return (
    <form class="decision" onSubmit={(e) => e.preventDefault()} aria-busy={busy}>
      <label for={noteId}>Note to the CEO (optional)</label>
      <textarea
        id={noteId}
        rows={3}
        maxLength={2000}
        value={note}
        onInput={(e) => setNote(e.currentTarget.value)}
      />
      {effects && (
        <ul class="effects" id={effectsId} data-testid="decision-effects">
          {ACTIONS.map((a) => (
            <li key={a.path}>
              <strong>{a.label}</strong>: the CEO's mode {effects[a.path] === mode ? "stays" : "becomes"}{" "}
              <strong>{effects[a.path]}</strong>
              {a.path === "approve" && effects.approve === "operating" && " — the team may start work"}
              {a.path !== "approve" &&
                effects[a.path] === "revising" &&
                " — it revises and files again, reading your note"}
            </li>
          ))}
        </ul>
      )}
      <div class="actions">
        {ACTIONS.map((a) => (
          <button
            key={a.path}
            type="button"
            class={a.tone}
            aria-disabled={busy}
            {...(effects ? { "aria-describedby": effectsId } : {})}
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
