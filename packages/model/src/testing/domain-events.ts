// One valid event of every domain event type, for the suites that write, stream and show them all.
// Keyed by the union's types: a new type without a sample here does not compile.
import type { DomainEvent, DomainEventData, DomainEventOf, DomainEventType } from "../domain-events/index.js";

const task = { taskId: "tsk_1", by: "ceo", via: "tool" } as const;
const wake = { requestId: "wrq_1", agentId: "agt_1", trigger: "task_assigned", taskId: "tsk_1" } as const;

export const SAMPLE_DOMAIN_EVENTS: { [T in DomainEventType]: DomainEventData<T> } = {
  "company.created": { name: "Acme", ceoAgentId: "ceo", connectors: ["offline"] },
  "mode.changed": {
    from: "team-building",
    to: "awaiting-approval",
    reason: "the latest strategy is pending",
  },
  "approval.filed": { approvalId: "apr_1", type: "approve_ceo_strategy", title: "Strategy", via: "tool" },
  "approval.decided": { approvalId: "apr_1", status: "approved", note: null },
  "connector.added": { connectorId: "local", kind: "openai-compatible", enabledModels: ["m1"] },
  "connector.removed": { connectorId: "local", kind: "openai-compatible" },
  "message.posted": { from: "operator", text: "How is it going?" },
  "agent.hired": {
    agentId: "agt_1",
    name: "CTO",
    role: "Chief Technology Officer",
    department: "engineering",
    connectorId: "offline",
    model: "offline-model",
    via: "tool",
    hiredBy: "ceo",
  },
  "agent.terminated": {
    agentId: "agt_1",
    name: "CTO",
    role: "Chief Technology Officer",
    keysRevoked: 1,
    tasksReturned: [{ taskId: "tsk_1", to: "ceo" }],
    wakesCancelled: 0,
  },
  "agent.model_changed": {
    agentId: "agt_1",
    name: "CTO",
    connectorId: "offline",
    from: "offline-model",
    to: "offline-model-2",
    live: "no live session",
    session: { action: "none", reason: "no session is kept" },
  },
  "agent.session_reset": { agentId: "agt_1", name: "CTO", harness: "pi", sessionId: "ses_1" },
  "task.created": {
    ...task,
    title: "Write the plan",
    assigneeAgentId: "agt_1",
    creatorAgentId: "ceo",
    blockers: [],
    strategyId: null,
    status: "todo",
  },
  "task.assigned": { ...task, from: "agt_1", to: "agt_2" },
  "task.updated": { ...task, from: "todo", status: "in_progress", deliverable: false },
  "task.commented": { ...task, commentId: "tcm_1", authorAgentId: "ceo" },
  "task.reviewed": { ...task, decision: "accept", from: "in_review", status: "done" },
  "task.review_escalated": { taskId: "tsk_1", by: "ceo", rounds: 3, bound: 3 },
  "task.checked_out": { taskId: "tsk_1", runId: "run_1" },
  "task.released": { taskId: "tsk_1", runId: "run_1", reason: "the run ended done" },
  "wake.requested": { ...wake, causedBy: "ceo", cause: "task assigned" },
  "wake.cancelled": { ...wake, note: "the agent was terminated" },
  "wake.dropped": { ...wake, note: "the task is finished" },
  "wake.returned": { ...wake, note: "the run stopped" },
  "schedule.set": {
    scheduleId: "sch_1",
    agentId: "agt_1",
    schedule: "every 1h",
    nextDueAt: "2026-01-01T01:00:00Z",
  },
  "schedule.removed": { scheduleId: "sch_1", agentId: "agt_1" },
  "schedule.skipped": {
    scheduleId: "sch_1",
    agentId: "agt_1",
    ticks: 2,
    reason: "a wake is already due",
    nextDueAt: "2026-01-01T02:00:00Z",
  },
  "run.stopped": { reason: "stopped by the operator" },
  "budget.changed": { scope: "company", budgetAgentId: null, change: { limitTokens: 1000 } },
  "budget.warned": {
    key: "company:month:0.8",
    scope: "company",
    fraction: 0.85,
    tokens: 850,
    usd: 0,
    limitTokens: 1000,
    limitUsd: null,
    unpricedCalls: 0,
    message: "the company's budget is at 85% (warning at 80%)",
  },
  "budget.exhausted": {
    reason: "budget",
    message: "the company's budget is used up",
    scope: "company",
    budgetAgentId: null,
  },
  "usage.reconciled": {
    threadId: "thr_1",
    calls: 1,
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
    message: "1 model call(s) were booked",
  },
  "model.drifted": { connectorId: "local", declared: "digest:a", served: "digest:b", policy: "warn" },
};

/** The sample event of a type, as a writer would give it. */
export function sampleDomainEvent<T extends DomainEventType>(type: T): DomainEventOf<T> {
  return { type, data: SAMPLE_DOMAIN_EVENTS[type] } as DomainEventOf<T>;
}

/** Every sample, in the union's order. */
export function sampleDomainEvents(): DomainEvent[] {
  return (Object.keys(SAMPLE_DOMAIN_EVENTS) as DomainEventType[]).map((type) => sampleDomainEvent(type));
}
