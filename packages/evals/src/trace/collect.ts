// Builds a trace from what a wake left behind: the run row and its stored events, the agents,
// approvals and activity of the company, and what the capture saw the model receive. Only facts
// from the store and the request — nothing the harness computes for itself.
import { loadCompanyState, type WakeResult } from "@cadre/company";
import { type AgentEvent, countTokens, emptyUsage, errorMessage, sha256 } from "@cadre/core";
import { usageSummaryJson } from "@cadre/model";
import type { AgentRow, ApprovalRow, Store } from "@cadre/store";
import { hashOf } from "../data/hash.js";
import type { CapturedRequest } from "../runner/capture.js";
import type { SeededCompany } from "../scenario/seed.js";
import { clip, normaliseArgs, normaliseText, redactVolatile } from "./normalise.js";
import {
  TRACE_SCHEMA_VERSION,
  type Trace,
  type TraceApproval,
  type TraceCap,
  type TraceCost,
  type TraceSource,
  type TraceToolCall,
} from "./types.js";

/** The phase a system prompt states and the title of the mode document it carries (C4-4 drift). */
export function promptPhases(system: string): { runtime: string | null; document: string | null } {
  return {
    runtime: /^Current phase: (.+)$/m.exec(system)?.[1]?.trim() ?? null,
    document: /^# (.+ Phase)$/m.exec(system)?.[1]?.trim() ?? null,
  };
}

export interface TraceMeta {
  scenarioId: string;
  sample: number;
  seed: number;
  profile: string;
  source: TraceSource;
  break: string | null;
  latencyMs: number;
  /** The cap that ended the sample (runner/caps.ts), if one did. */
  cap?: { kind: TraceCap["kind"]; message: string } | null;
  /** Why its answers came from a stand-in, when they did. */
  standin?: string;
}

export interface WakeOutcome {
  /** The wake's result, or the error it threw (then no run exists). */
  result?: WakeResult;
  error?: unknown;
  trigger: string;
  modeBefore: string;
}

function approvalOf(a: ApprovalRow): TraceApproval {
  return { type: a.type, title: normaliseText(a.title), status: a.status, via: a.via };
}

/** The tool calls in a run's stored events, with their results (also what a capture records). */
export function toolCallsOf(events: AgentEvent[]): TraceToolCall[] {
  const results = new Map<string, Extract<AgentEvent, { type: "tool_result" }>>();
  for (const e of events) if (e.type === "tool_result") results.set(e.toolUseId, e);
  return events
    .filter((e): e is Extract<AgentEvent, { type: "tool_use" }> => e.type === "tool_use")
    .map((use) => {
      const result = results.get(use.id);
      const text = result
        ? result.content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType}]`)).join("")
        : "(no result)";
      return {
        name: use.name,
        args: normaliseArgs(use.input),
        ok: result ? !result.isError : false,
        result: clip(normaliseText(text)),
      };
    });
}

/** The run's model calls from the spend ledger, each priced at the model that served it. */
export async function costOfRun(store: Store, runId: string | undefined): Promise<TraceCost> {
  const rows = runId ? await store.listModelCalls(runId) : [];
  const calls = rows.map((c) => ({ model: c.model, servedModel: c.servedModel, usd: c.costUsd }));
  const unpriced = calls.filter((c) => c.usd === null).length;
  return {
    usd: unpriced > 0 ? null : calls.reduce((sum, c) => sum + (c.usd as number), 0),
    unpricedCalls: unpriced,
    calls,
  };
}

/**
 * The wake's hires and filings in commit order (activity ids are strictly increasing; creation
 * times are not, within a millisecond), and as path-independent trajectory steps.
 */
async function inCommitOrder(store: Store, companyId: string, hires: AgentRow[], filed: ApprovalRow[]) {
  const hired = new Map(hires.map((a) => [a.id, a]));
  const filedById = new Map(filed.map((a) => [a.id, a]));
  const agents: AgentRow[] = [];
  const approvals: ApprovalRow[] = [];
  const steps: string[] = [];
  for (const row of await store.listActivity(companyId)) {
    const data = (row.data ?? {}) as { agentId?: string; approvalId?: string };
    const agent = row.type === "agent.hired" && data.agentId ? hired.get(data.agentId) : undefined;
    const approval =
      row.type === "approval.filed" && data.approvalId ? filedById.get(data.approvalId) : undefined;
    if (agent) {
      agents.push(agent);
      steps.push(`hire:${agent.department ?? "none"}`);
    }
    if (approval) {
      approvals.push(approval);
      steps.push(`file:${approval.type}`);
    }
  }
  // A record without its activity row would be a bug elsewhere; it is still reported, last.
  agents.push(...hires.filter((a) => !agents.includes(a)));
  approvals.push(...filed.filter((a) => !approvals.includes(a)));
  return { agents, approvals, steps };
}

export async function collectTrace(
  store: Store,
  seeded: SeededCompany,
  outcome: WakeOutcome,
  captured: CapturedRequest | undefined,
  meta: TraceMeta,
): Promise<Trace> {
  const { companyId } = seeded;
  const [agents, approvals, state] = await Promise.all([
    store.listAgents(companyId),
    store.listApprovals(companyId),
    loadCompanyState(store, companyId),
  ]);
  const wake = await inCommitOrder(
    store,
    companyId,
    agents.filter((a) => !seeded.agentIds.has(a.id)),
    approvals.filter((a) => !seeded.approvalIds.has(a.id)),
  );
  const hires = wake.agents;
  const filed = wake.approvals;
  const finalAgents = [...agents.filter((a) => seeded.agentIds.has(a.id)), ...hires];
  const finalApprovals = [...approvals.filter((a) => seeded.approvalIds.has(a.id)), ...filed];
  const ceo = agents.find((a) => a.id === seeded.ceoId) as AgentRow;
  const result = outcome.result;
  const events = result ? (await store.listRunEvents(result.run.id)).map((e) => e.data as AgentEvent) : [];
  const errors = events
    .filter((e): e is Extract<AgentEvent, { type: "error" }> => e.type === "error")
    .map((e) => normaliseText(e.message));
  if (outcome.error !== undefined) errors.push(normaliseText(errorMessage(outcome.error)));
  const u = result?.usage;
  const cost = await costOfRun(store, result?.run.id);
  return {
    schemaVersion: TRACE_SCHEMA_VERSION,
    scenarioId: meta.scenarioId,
    sample: meta.sample,
    seed: meta.seed,
    profile: meta.profile,
    ceoRoute: `${ceo.connectorId}/${ceo.model}`,
    source: meta.source,
    ...(meta.standin ? { standin: meta.standin } : {}),
    break: meta.break,
    trigger: result?.run.trigger ?? outcome.trigger,
    modeBefore: outcome.modeBefore,
    modeAfter: state.mode,
    cue: { text: redactVolatile(result?.cue ?? ""), tokens: result?.cueTokens ?? 0 },
    systemPrompt: captured
      ? {
          tokens: countTokens(captured.systemPrompt),
          sha256: sha256(captured.systemPrompt),
          observed: true,
          phases: promptPhases(captured.systemPrompt),
        }
      : { tokens: 0, sha256: "", observed: false },
    tools: (captured?.tools ?? []).map((t) => ({ name: t.name, schemaHash: hashOf(t.parameters) })),
    toolCalls: toolCallsOf(events),
    trajectory: wake.steps,
    hires: hires.map((a) => ({
      name: a.name,
      role: a.role,
      description: a.description,
      department: a.department,
      connectorId: a.connectorId,
      model: a.model,
      via: a.via,
    })),
    approvalsFiled: filed.map(approvalOf),
    usage: {
      ...usageSummaryJson(u ?? emptyUsage()),
      modelCalls: events.filter((e) => e.type === "usage").length,
    },
    cost,
    cap: meta.cap ?? null,
    latencyMs: meta.latencyMs,
    // A sample a cap ended is a failed sample, whatever the run's own end (a wall-time cap cancels it).
    terminal: meta.cap ? "failed" : (result?.terminal ?? "failed"),
    errors,
    finalState: {
      mode: state.mode,
      agents: finalAgents.map((a) => ({
        name: a.name,
        role: a.role,
        department: a.department,
        connectorId: a.connectorId,
        model: a.model,
        via: a.via,
        status: a.status,
        isCeo: a.isCeo,
      })),
      approvals: finalApprovals.map(approvalOf),
    },
  };
}
