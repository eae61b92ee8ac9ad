// What the company is waiting for, and what the operator can do about it, from what the Overview
// already holds (the CEO's mode, approvals, runs, tasks). The one case that needs saying most: a
// CEO in "revising" that filed nothing since the strategy was sent back and is not at work — the
// company sits there until someone wakes it or writes to it.
import type { Agent, Approval, CompanyView, Run, Task } from "../api/types.js";

/** What the Overview offers next to the sentence. */
export type Offer = "start_team_building" | "decide" | "wake_ceo" | "message_ceo" | "create_task";

export interface Waiting {
  /** One line: what the company waits for. */
  headline: string;
  /** What led there, and what each offer does. */
  detail: string;
  offers: Offer[];
  /** The revising company's CEO filed nothing and is not at work: the operator must act. */
  stuck: boolean;
  /** The run the sentence is about (the CEO's run in progress, or its last one since the decision). */
  runId?: string;
}

export interface WaitingInput {
  company: Pick<CompanyView, "ceoMode" | "ceoAgentId">;
  approvals: readonly Approval[];
  runs: readonly Run[];
  tasks: readonly Task[];
  agents: readonly Agent[];
  /** The company's budget state, when read: exhausted refuses every wake, whatever else waits. */
  budgetState?: "ok" | "warning" | "exhausted" | "none" | undefined;
}

const OPEN = new Set(["todo", "in_progress", "blocked", "in_review"]);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function waitingFor(input: WaitingInput): Waiting {
  const { company, approvals, runs, tasks } = input;
  const ceo = company.ceoAgentId;
  const running = runs.filter((r) => r.status === "running");
  const ceoRun = running.find((r) => r.agentId === ceo);
  const pending = approvals.filter((a) => a.status === "pending");
  const strategies = approvals.filter((a) => a.type === "approve_ceo_strategy");
  const latest = strategies.at(-1);

  if (pending.length > 0) {
    const first = pending[0]!;
    return {
      headline:
        pending.length === 1
          ? `Waiting for your decision on “${first.title}”.`
          : `Waiting for your decision on ${pending.length} approvals.`,
      detail: "Nothing of it moves on until you approve, ask for a revision or reject, under Approvals.",
      offers: ["decide"],
      stuck: false,
    };
  }
  if (ceoRun)
    return {
      headline: "The CEO is at work.",
      detail: `Its run started in ${company.ceoMode}; what it does next is decided when the run ends.`,
      offers: [],
      stuck: false,
      runId: ceoRun.id,
    };
  if (input.budgetState === "exhausted")
    return {
      headline: "Waiting for budget: the company's budget is exhausted, so no agent can be woken.",
      detail:
        "Work waits until the limit is raised (or the period turns over). Raise it in the budget line above, or under Usage.",
      offers: [],
      stuck: true,
    };
  switch (company.ceoMode) {
    case "team-building":
      return {
        headline: "Waiting for you to start team building.",
        detail:
          "The CEO has no team yet. Start team building: it hires its first leads and drafts a strategy.",
        offers: ["start_team_building"],
        stuck: false,
      };
    case "strategy-drafting":
      return {
        headline: "Waiting for the CEO to file its strategy.",
        detail: "It has a team and no strategy filed, and it is not at work. Wake it, or write to it.",
        offers: ["wake_ceo", "message_ceo"],
        stuck: false,
      };
    case "revising": {
      const decidedAt = latest?.decidedAt ?? latest?.createdAt ?? "";
      const how = latest?.status === "rejected" ? "rejected" : "sent back for revision";
      const since = runs.filter(
        (r) => r.agentId === ceo && r.startedAt >= decidedAt && r.status !== "running",
      );
      const last = since.at(-1);
      return {
        headline: `Stuck in revising: the CEO filed nothing since you ${latest?.status === "rejected" ? "rejected" : "sent back"} “${latest?.title ?? "the strategy"}”.`,
        detail: last
          ? `Its last run since then ended (${last.status}) without filing a revised strategy, and nothing is running. Wake the CEO to revise it, or write to it: your message wakes it too.`
          : `The strategy was ${how} and the CEO has not run since. Wake it to revise the strategy, or write to it: your message wakes it too.`,
        offers: ["wake_ceo", "message_ceo"],
        stuck: true,
        ...(last ? { runId: last.id } : {}),
      };
    }
    case "awaiting-approval":
      // Pending approvals were handled above; the mode is being re-read.
      return { headline: "Waiting for your decision.", detail: "", offers: ["decide"], stuck: false };
    case "operating": {
      const open = tasks.filter((t) => OPEN.has(t.status));
      const review = open.filter((t) => t.status === "in_review").length;
      const blocked = open.filter((t) => t.status === "blocked").length;
      if (running.length > 0)
        return {
          headline: `The team is at work: ${plural(running.length, "run")} in progress.`,
          detail: `${plural(open.length, "open task")}${review > 0 ? `, ${review} in review` : ""}${blocked > 0 ? `, ${blocked} blocked` : ""}.`,
          offers: ["message_ceo"],
          stuck: false,
        };
      if (open.length === 0)
        return {
          headline: "Nothing to do: no open task, nothing running.",
          detail: "Create a task for someone, or write to the CEO about what comes next.",
          offers: ["create_task", "message_ceo"],
          stuck: false,
        };
      return {
        headline: `Waiting for the next wake: ${plural(open.length, "open task")}, nothing running.`,
        detail: [
          ...(review > 0 || blocked > 0
            ? [
                `${[...(review > 0 ? [`${review} in review`] : []), ...(blocked > 0 ? [`${blocked} blocked`] : [])].join(", ")}.`,
              ]
            : []),
          "Each assignee is woken for its work; run due work under Runs, or write to the CEO.",
        ].join(" "),
        offers: ["message_ceo"],
        stuck: false,
      };
    }
  }
}
