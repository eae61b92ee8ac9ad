// What a domain event (SSE `domain_event`) changes in the company view. The event carries enough
// to show the change at once — a hire lands in the org chart, a mode change shows its reason — and
// names the resources to re-read from the API, which stays the one source of truth.
import type { Agent, CompanyView, DomainMessage } from "../api/types.js";

/** `budget`: the budget views (notice, Usage tab) re-read their report. */
export type Resource =
  "company" | "agents" | "approvals" | "connectors" | "runs" | "tasks" | "budget" | "messages";

/**
 * The company as shown. `toolsPending`: the stream reported a mode change, and the tools of the new
 * mode are known only once the company is re-read (the dashboard does not restate the server's
 * mode → tools table).
 */
export type ShownCompany = CompanyView & { toolsPending?: true };

export interface CompanySnapshot {
  company: ShownCompany;
  agents: Agent[];
}

export interface DomainEffect {
  snapshot: CompanySnapshot;
  refetch: Set<Resource>;
}

export function applyDomainEvent(snap: CompanySnapshot, m: DomainMessage): DomainEffect {
  const refetch = new Set<Resource>();
  let { company, agents } = snap;
  switch (m.type) {
    case "agent.hired": {
      const d = m.data;
      if (!agents.some((a) => a.id === d.agentId)) {
        const hire: Agent = {
          id: d.agentId,
          companyId: company.id,
          name: d.name,
          role: d.role,
          description: "",
          department: d.department,
          connectorId: d.connectorId,
          model: d.model,
          reportsTo: d.hiredBy ?? company.ceoAgentId,
          isCeo: false,
          status: "active",
          via: d.via,
          createdAt: m.at,
        };
        agents = [...agents, hire];
      }
      refetch.add("agents");
      break;
    }
    case "agent.terminated": {
      const id = m.data.agentId;
      agents = agents.map((a) => (a.id === id ? { ...a, status: "terminated" } : a));
      refetch.add("agents");
      break;
    }
    case "mode.changed": {
      const { to, reason } = m.data;
      if (to !== company.ceoMode)
        company = { ...company, ceoMode: to, ceoModeReason: reason, toolsPending: true };
      refetch.add("company");
      break;
    }
    case "company.created":
      refetch.add("company");
      break;
    case "approval.filed":
    case "approval.decided":
      refetch.add("approvals").add("company");
      break;
    case "connector.added":
    case "connector.removed":
      refetch.add("connectors").add("company");
      break;
    case "agent.model_changed":
      refetch.add("agents").add("connectors");
      break;
    // The company at work: a task changed (created, assigned, updated, commented, checked out,
    // released, reviewed, its review escalated) — its board is re-read, and the runs, which start and end with the work.
    case "task.created":
    case "task.assigned":
    case "task.updated":
    case "task.commented":
    case "task.checked_out":
    case "task.released":
    case "task.reviewed":
    case "task.review_escalated":
      refetch.add("tasks").add("runs");
      break;
    // A budget or a price was set: the budget state (a raise ends an "exhausted" at once) and the
    // company, whose settings hold the prices, are re-read.
    case "budget.changed":
      refetch.add("budget").add("company");
      break;
    // A budget warned or stopped a run, or a lost run's calls were booked: the spend and the
    // budget state (ok, warning, exhausted) are re-read.
    case "budget.warned":
    case "budget.exhausted":
    case "usage.reconciled":
      refetch.add("budget");
      break;
    case "run.stopped":
      refetch.add("runs");
      break;
    // The thread with the CEO: a message from the operator, or the CEO's reply.
    case "message.posted":
      refetch.add("messages");
      break;
    // Nothing the company view shows: the wake queue, schedules, a session reset, a drift warning
    // (the run they concern, if any, is re-read below).
    case "agent.session_reset":
    case "wake.requested":
    case "wake.cancelled":
    case "wake.dropped":
    case "wake.returned":
    case "schedule.set":
    case "schedule.removed":
    case "schedule.skipped":
    case "model.drifted":
      break;
    default: {
      // Every type is handled above (a new one does not compile until it is); a newer server's
      // type this dashboard does not know yet changes nothing.
      const unknown: never = m;
      void unknown;
    }
  }
  if (m.runId !== null) refetch.add("runs");
  return {
    snapshot: company === snap.company && agents === snap.agents ? snap : { company, agents },
    refetch,
  };
}
