// The CEO's mode as a badge, coloured by what it asks of the operator.
import type { CeoMode } from "../../api/types.js";

const TONE: Record<CeoMode, string> = {
  "team-building": "info",
  "strategy-drafting": "info",
  "awaiting-approval": "warn",
  revising: "warn",
  operating: "ok",
};

export function ModeBadge({ mode }: { mode: CeoMode }) {
  return (
    <span class={`badge ${TONE[mode]}`} data-testid="ceo-mode">
      <span class="visually-hidden">CEO mode: </span>
      {mode}
    </span>
  );
}
