// One decision on a pending approval, with an optional note, and — before it is made — what each
// decision will do to the CEO's mode (the server's `modeIfDecided`, from the mode function it
// decides with). The buttons are never disabled under the pointer or the keyboard (a disabled
// button drops focus to the page): a second press while one decision is in flight does nothing.
// A conflict (someone decided first) is reported as the API words it.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Approval, CeoMode, DecisionResult } from "../../api/types.js";
import { notAllowed, useMe } from "../../session/permissions.js";

// Each decision says what it does, in its own words: approving lets the strategy stand, a revision
// request keeps it as the basis of the next version, a rejection turns it down for a new one.
const ACTIONS = [
  {
    path: "approve",
    label: "Approve",
    tone: "primary",
    does: "the strategy stands as filed",
  },
  {
    path: "request-revision",
    label: "Request revision",
    tone: "",
    does: "the CEO keeps this strategy as the basis, changes what your note asks for and files the revised version",
  },
  {
    path: "reject",
    label: "Reject",
    tone: "danger",
    does: "this strategy is turned down; the CEO drafts a different one, reading your note",
  },
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
  const effectId = (path: string) => `${effectsId}-${path}`;
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
            <li key={a.path} id={effectId(a.path)} data-testid={`effect-${a.path}`}>
              <strong>{a.label}</strong>: the CEO's mode {effects[a.path] === mode ? "stays" : "becomes"}{" "}
              <strong>{effects[a.path]}</strong> — {a.does}
              {a.path === "approve" && effects.approve === "operating" && ", and the team may start work"}.
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
            {...(effects ? { "aria-describedby": effectId(a.path) } : {})}
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
