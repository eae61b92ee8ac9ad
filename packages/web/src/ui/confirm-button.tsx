// A destructive action asks once more before it acts: the first press turns the button into a
// question with the action's own consequence spelled out, and "Keep" backs out without a change.
import { useState } from "preact/hooks";

export function ConfirmButton({
  label,
  question,
  confirmLabel,
  busy,
  onConfirm,
}: {
  label: string;
  /** What will happen, e.g. "Terminate Ada? Her keys are revoked and she takes no more work." */
  question: string;
  confirmLabel: string;
  busy: boolean;
  onConfirm(): void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class="danger" onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span>{question}</span>{" "}
      <button
        type="button"
        class="danger"
        aria-disabled={busy}
        onClick={() => {
          if (busy) return;
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </button>{" "}
      <button type="button" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
