// The run as an operator first reads it: which agent ran (name, role, linked to its team), why it
// woke (linked to the task, approval or message that woke it), how it ended in one line — a budget
// or run-cap stop named as such, once — and what it spent in tokens and dollars (an unknown price
// reads "unknown", never $0).
import type { JSX } from "preact";
import type { RunDetail } from "../../api/types.js";
import { formatCost, formatTime, formatTokens } from "../../model/format.js";
import type { Outcome } from "../../model/run-read.js";
import { triggerWords } from "../../model/run-read.js";
import { href } from "../../route.js";

/** One reason the run was woken, as the why endpoint records it. */
export interface WakeReason {
  trigger: string;
  by: { type: "agent" | "operator" | "system"; name: string };
  taskId: string | null;
  approvalId: string | null;
}

export function RunHeader({
  runId,
  companyId,
  run,
  reasons,
  outcome,
  tokens,
  taskTitles,
}: {
  runId: string;
  companyId: string;
  run: RunDetail | undefined;
  /** This run's reasons (undefined while they load). */
  reasons: readonly WakeReason[] | undefined;
  outcome: Outcome;
  /** Tokens so far, from the events folded (follows a live run). */
  tokens: number;
  taskTitles: ReadonlyMap<string, string>;
}) {
  const overview = href({ page: "company", companyId, tab: "overview" });
  const agent = run?.agent;
  return (
    <section class="card wide run-header" data-testid="run-header" aria-labelledby="run-title">
      <h1 id="run-title">
        {agent ? (
          <>
            <a href={overview} data-testid="run-agent" title="The team, on the company's Overview">
              {agent.name}
            </a>{" "}
            <span class="role" data-testid="run-agent-role">
              {agent.role}
            </span>
          </>
        ) : (
          <>Run {run ? "of an agent no longer in the company" : ""}</>
        )}
      </h1>
      <p class="muted small">
        Run <code>{runId}</code>
        {run && ` · started ${formatTime(run.startedAt)} · in ${run.mode}`}
      </p>
      {run && (
        <p data-testid="run-trigger">
          <strong>Woke because</strong> {triggerWords(run.trigger)}
          <Causes reasons={reasons} companyId={companyId} trigger={run.trigger} taskTitles={taskTitles} />
        </p>
      )}
      <p class={`outcome ${outcome.tone}`} data-testid="run-outcome">
        <span
          class={`badge ${outcome.state === "done" ? "ok" : outcome.state === "running" ? "info" : "warn"}`}
          data-testid="run-state"
        >
          {outcome.stop ? "stopped" : outcome.state}
        </span>{" "}
        <span data-testid="run-outcome-text">{outcome.text}</span>
        {outcome.stop && (
          <>
            {" · "}
            <a href={href({ page: "company", companyId, tab: "usage" })}>Budget and run caps</a>
          </>
        )}
      </p>
      <p data-testid="run-spend">
        <strong>Spent</strong> {formatTokens(tokens)} tokens ·{" "}
        <span data-testid="run-cost">{run ? formatCost(run.costUsd) : "…"}</span>
        {run?.costUsd === null && <span class="muted"> (a model's price is not known)</span>}
      </p>
    </section>
  );
}

/** What the reasons point at: the task (by title), the approval, the operator's message. */
function Causes({
  reasons,
  companyId,
  trigger,
  taskTitles,
}: {
  reasons: readonly WakeReason[] | undefined;
  companyId: string;
  trigger: string;
  taskTitles: ReadonlyMap<string, string>;
}) {
  // Each thing that woke it, once, with who did it ("by CEO", "by the operator").
  const links: JSX.Element[] = [];
  const seen = new Set<string>();
  const by = (r: WakeReason) =>
    r.by.type === "agent" ? ` (by ${r.by.name})` : r.by.type === "operator" ? " (by the operator)" : "";
  for (const r of reasons ?? []) {
    if (r.taskId && !seen.has(r.taskId)) {
      seen.add(r.taskId);
      links.push(
        <span key={r.taskId}>
          <a href={href({ page: "task", companyId, taskId: r.taskId })} data-testid="trigger-task">
            {taskTitles.get(r.taskId) ?? r.taskId}
          </a>
          {by(r)}
        </span>,
      );
    }
    if (r.approvalId && !seen.has(r.approvalId)) {
      seen.add(r.approvalId);
      links.push(
        <span key={r.approvalId}>
          <a href={href({ page: "company", companyId, tab: "approvals" })} data-testid="trigger-approval">
            approval {r.approvalId}
          </a>
          {by(r)}
        </span>,
      );
    }
  }
  if (trigger === "operator_message")
    links.push(
      <a
        key="message"
        href={href({ page: "company", companyId, tab: "overview" })}
        data-testid="trigger-message"
      >
        the message
      </a>,
    );
  return (
    <>
      {links.length > 0 && ": "}
      {links.map((l, i) => (
        <span key={i}>
          {i > 0 && "; "}
          {l}
        </span>
      ))}
    </>
  );
}
