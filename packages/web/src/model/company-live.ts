// What a domain event (SSE `domain_event`) changes in the company view. The event carries enough
// to show the change at once — a hire lands in the org chart, a mode change shows its reason — and
// names the resources to re-read from the API, which stays the one source of truth.
import { DEPARTMENTS, isOneOf, VIAS } from "@cadre/model";
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

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function applyDomainEvent(snap: CompanySnapshot, m: DomainMessage): DomainEffect {
  const refetch = new Set<Resource>();
  let { company, agents } = snap;
  const d = m.data;
  switch (m.type) {
    case "agent.hired": {
      const id = str(d["agentId"]) ?? m.agentId;
      if (id && !agents.some((a) => a.id === id)) {
        const hire: Agent = {
          id,
          companyId: company.id,
          name: str(d["name"]) ?? "(new agent)",
          role: str(d["role"]) ?? "",
          description: "",
          department: isOneOf(DEPARTMENTS, d["department"]) ? d["department"] : null,
          connectorId: str(d["connectorId"]) ?? "",
          model: str(d["model"]) ?? "",
          reportsTo: str(d["hiredBy"]) ?? company.ceoAgentId,
          isCeo: false,
          status: "active",
          via: isOneOf(VIAS, d["via"]) ? d["via"] : "tool",
          createdAt: m.at,
        };
        agents = [...agents, hire];
      }
      refetch.add("agents");
      break;
    }
    case "agent.terminated": {
      const id = str(d["agentId"]) ?? m.agentId;
      agents = agents.map((a) => (a.id === id ? { ...a, status: "terminated" } : a));
      refetch.add("agents");
      break;
    }
    case "mode.changed": {
      const to = str(d["to"]);
      if (to && to !== company.ceoMode)
        company = {
          ...company,
          ceoMode: to as CompanyView["ceoMode"],
          ceoModeReason: str(d["reason"]) ?? company.ceoModeReason,
          toolsPending: true,
        };
      refetch.add("company");
      break;
    }
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
    // A budget warned or stopped a run: its state (ok, warning, exhausted) is re-read.
    case "budget.warned":
    case "budget.exhausted":
      refetch.add("budget");
      break;
    // The thread with the CEO: a message from the operator, or the CEO's reply.
    case "message.posted":
      refetch.add("messages");
      break;
    default:
      break;
  }
  if (m.runId !== null) refetch.add("runs");
  return {
    snapshot: company === snap.company && agents === snap.agents ? snap : { company, agents },
    refetch,
  };
}
