// Spend against budget: the company's budget and each agent's, from GET
// …/companies/{id}/budget and …/agents/{id}/budget — what was spent in the period, the limit, the
// share used as a bar, and the state in words: ok, warning (a threshold crossed or an unknown price
// under a USD limit), exhausted (new wakes are refused; how to raise it), or no budget. Re-read
// whenever a run starts or ends.
import { useEffect, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { Agent, BudgetReport, BudgetUse } from "../../api/types.js";
import { useResource } from "../../hooks/use-resource.js";
import { type BudgetLine, budgetLine } from "../../model/budget-view.js";
import { formatCost, formatPercent, formatTokens } from "../../model/format.js";
import { useMe } from "../../session/permissions.js";
import { BudgetRaise } from "../actions/budget-raise.js";
import { NoBreakFlags } from "../../ui/no-break-flags.js";

function UsedBar({ line, label }: { line: BudgetLine; label: string }) {
  if (line.used === null)
    return <span class="muted">{line.state !== "none" && line.limit !== "no limit" ? "unknown" : "—"}</span>;
  const figure = `${line.atLeast ? "≥ " : ""}${formatPercent(line.used, 0)}`;
  return (
    <span
      class={`used ${line.tone}`}
      role="meter"
      aria-label={`${label}: ${figure} of the budget used`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(line.used * 100)}
    >
      <span class="track">
        <span class="fill" style={{ width: `${(Math.min(1, line.used) * 100).toFixed(1)}%` }} />
      </span>
      <span class="figure">{figure}</span>
    </span>
  );
}

function StateBadge({ line }: { line: BudgetLine }) {
  return (
    <span class={`badge ${line.tone}`} data-testid="budget-state" data-state={line.state}>
      {line.badge}
    </span>
  );
}

function runCapsText(caps: BudgetReport["runCaps"]): string {
  const parts = [
    caps.maxModelCalls !== null ? `${formatTokens(caps.maxModelCalls)} model calls` : undefined,
    caps.maxToolCalls !== null ? `${formatTokens(caps.maxToolCalls)} tool calls` : undefined,
    caps.maxTokens !== null ? `${formatTokens(caps.maxTokens)} tokens` : undefined,
    caps.maxUsd !== null ? formatCost(caps.maxUsd) : undefined,
    caps.maxWallSeconds !== null ? `${caps.maxWallSeconds} s` : undefined,
  ].filter((x): x is string => x !== undefined);
  return parts.length === 0 ? "Each run: no caps." : `Each run stops at ${parts.join(", ")}.`;
}

export function BudgetPanel({
  api,
  companyId,
  agents,
  runsVersion,
}: {
  api: Api;
  companyId: string;
  agents: readonly Agent[];
  runsVersion: string;
}) {
  const report = useResource(api, "GET /api/companies/{id}/budget", { params: { id: companyId } });
  const { reload } = report;
  useEffect(() => reload(), [runsVersion, reload]);
  const me = useMe();
  const [perAgent, setPerAgent] = useState<Record<string, BudgetUse | string>>({});
  const agentIds = agents.map((a) => a.id).join();
  useEffect(() => {
    let current = true;
    void Promise.all(
      agents.map((a) =>
        api.call("GET /api/agents/{id}/budget", { params: { id: a.id } }).then(
          (r) => [a.id, r.budget] as const,
          (e: unknown) => [a.id, e instanceof Error ? e.message : String(e)] as const,
        ),
      ),
    ).then((entries) => {
      if (current) setPerAgent(Object.fromEntries(entries));
    });
    return () => {
      current = false;
    };
    // Re-read when the agents or the runs change (`agents` is a new array on every update).
  }, [api, agentIds, runsVersion]);

  if (report.error)
    return (
      <p class="alert error" role="alert">
        {report.error}
      </p>
    );
  const r = report.data;
  if (!r) return <p aria-busy="true">Loading the budget…</p>;
  const company = budgetLine(r.budget);
  return (
    <section class="card wide budget" aria-labelledby="budget-title" data-testid="budget">
      <h2 id="budget-title">Budget</h2>
      <div class="budget-company" data-testid="budget-company">
        <p class="budget-head">
          <strong>Company</strong> <StateBadge line={company} />
        </p>
        <p>
          <span data-testid="budget-spent">Spent {company.spent}</span> of{" "}
          <span data-testid="budget-limit">{company.limit}</span>
        </p>
        <UsedBar line={company} label="Company" />
        <p class={`budget-detail ${company.tone}`} data-testid="budget-detail">
          <NoBreakFlags text={company.detail} />
        </p>
        <p class="muted small">{runCapsText(r.runCaps)}</p>
        {/* Setting the budget is an owner's, as raising it on the warning is. */}
        {me.may.administer && (
          <BudgetRaise
            name="Set the budget"
            choose
            api={api}
            companyId={companyId}
            budget={r.budget}
            models={[...new Set(agents.map((a) => a.model))]}
            onDone={reload}
          />
        )}
      </div>
      <div class="table-scroll">
        <table data-testid="budget-agents" class="stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Spent this period</th>
              <th scope="col">Own budget</th>
              <th scope="col">Used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {agents.map((a) => {
              const b = perAgent[a.id];
              if (b === undefined)
                return (
                  <tr key={a.id} data-agent={a.id}>
                    <th scope="row">{a.name}</th>
                    <td colSpan={4} aria-busy="true">
                      Loading…
                    </td>
                  </tr>
                );
              if (typeof b === "string")
                return (
                  <tr key={a.id} data-agent={a.id}>
                    <th scope="row">{a.name}</th>
                    <td colSpan={4} role="alert">
                      {b}
                    </td>
                  </tr>
                );
              const line = budgetLine(b);
              return (
                <tr key={a.id} data-agent={a.id} class={a.status === "terminated" ? "terminated" : undefined}>
                  <th scope="row">{a.name}</th>
                  <td data-label="Spent">{line.spent}</td>
                  <td data-label="Own budget">{line.limit}</td>
                  <td data-label="Used">
                    <UsedBar line={line} label={a.name} />
                  </td>
                  <td data-label="State">
                    <StateBadge line={line} />
                    <div class="muted small" data-testid="budget-detail">
                      <NoBreakFlags text={line.detail} />
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
