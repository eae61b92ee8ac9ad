// The overview's line about the company's budget, shown only when it needs the operator: warned
// (a threshold crossed, or an unknown price under a USD limit) or exhausted (wakes are refused).
// The Usage tab has the whole picture, per agent. The limit can be raised (or a price set) right
// here, and the notice re-reads the budget at once.
import { useEffect } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { BudgetUse } from "../../api/types.js";
import { useResource } from "../../hooks/use-resource.js";
import { budgetLine } from "../../model/budget-view.js";
import { href } from "../../route.js";
import { BudgetRaise } from "../actions/budget-raise.js";
import { useMe } from "../../session/permissions.js";
import { NoBreakFlags } from "../../ui/no-break-flags.js";

export function BudgetNotice({
  api,
  companyId,
  runsVersion,
  models,
  onState,
}: {
  api: Api;
  companyId: string;
  runsVersion: string;
  /** The models the company's agents run on. */
  models: string[];
  /** Told the budget's state each time it is read (the Overview's waiting line names an exhausted one). */
  onState?: (state: BudgetUse["state"]) => void;
}) {
  const report = useResource(api, "GET /api/companies/{id}/budget", { params: { id: companyId } });
  const { reload } = report;
  const me = useMe();
  useEffect(() => reload(), [runsVersion, reload]);
  const state = report.data?.budget.state;
  useEffect(() => {
    if (state !== undefined) onState?.(state);
  }, [state, onState]);
  if (!report.data) return null;
  const line = budgetLine(report.data.budget);
  if (line.state !== "warning" && line.state !== "exhausted") return null;
  return (
    <div class={`alert wide budget-notice ${line.tone === "danger" ? "error" : "warn"}`}>
      <p role="status" data-testid="budget-notice">
        <strong>Budget: {line.badge}</strong> — spent {line.spent} of {line.limit}.{" "}
        <NoBreakFlags text={line.detail} />{" "}
        <a href={href({ page: "company", companyId, tab: "usage" })}>Spend per agent</a>
      </p>
      {/* Raising a budget or setting a price is an owner's. */}
      {me.may.administer && (
        <BudgetRaise
          api={api}
          companyId={companyId}
          budget={report.data.budget}
          models={models}
          onDone={reload}
        />
      )}
    </div>
  );
}
