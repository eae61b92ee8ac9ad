// Running the company's due work now (POST /api/companies/{id}/due-work, as `cadre run --server`):
// each agent with work waiting is woken; what became of the pass is said in one line.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { AnswerOf } from "@cadre/server/client";
import { ActionError } from "../../ui/action-error.js";
import { useAction } from "../../ui/use-action.js";

type Pass = AnswerOf<"POST /api/companies/{id}/due-work">;

/** The pass in words: runs started, wakes queued, refusals, or that nothing was due. */
export function dueWorkLine(pass: Pass): string {
  const parts = [
    ...(pass.runs.length > 0 ? [`${pass.runs.length} run${pass.runs.length === 1 ? "" : "s"} started`] : []),
    ...(pass.queued.length > 0 ? [`${pass.queued.length} queued for a worker`] : []),
    ...pass.problems.map((p) => `refused: ${p.message}`),
  ];
  return parts.length > 0 ? `${parts.join("; ")}.` : "Nothing was due: no agent has work waiting.";
}

export function DueWork({ api, companyId, onStarted }: { api: Api; companyId: string; onStarted(): void }) {
  const [said, setSaid] = useState<string | undefined>(undefined);
  const action = useAction();
  return (
    <div class="due-work">
      <button
        type="button"
        aria-disabled={action.busy}
        onClick={() =>
          void action.run(async () => {
            setSaid(undefined);
            const pass = await api.call("POST /api/companies/{id}/due-work", {
              params: { id: companyId },
              body: {},
            });
            setSaid(dueWorkLine(pass));
            onStarted();
          })
        }
      >
        {action.busy ? "Running due work…" : "Run due work"}
      </button>
      {said && (
        <span class="muted" role="status" data-testid="due-work-result">
          {" "}
          {said}
        </span>
      )}
      <ActionError error={action.error} />
    </div>
  );
}
