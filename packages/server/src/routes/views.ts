// What the API answers, in one place: a TypeBox schema per response body (the OpenAPI document's
// response schemas, and the types the dashboard and the CLI's API client import) and the function
// that builds it from the records — never a store row passed through. The JSON field names are the
// ones the API has always sent. Connectors add their readiness, computed now, and never echo
// anything that looks like a secret; a run's usage keeps its documented counter names.
import {
  AgentUsageReportSchema,
  type CompanyState,
  CompanyUsageReportSchema,
  connectorView,
  type DecisionResult,
  modeAfterDecision,
  modeOffer,
  type ModelChange,
  OPERATOR_ACTIONS_LIST,
  type ProbeBook,
  RunUsageReportSchema,
  scrubSecrets,
  TaskDetailViewSchema,
  type TaskDetailView,
  taskView,
  TaskViewSchema,
  type TaskView,
  type Termination,
  wakeRequestView,
  WakeRequestViewSchema,
  type WakeRequestView,
} from "@cadre/company";
import {
  AgentRowSchema,
  ApprovalEventRowSchema,
  ApprovalRowSchema,
  CompanyRowSchema,
  RunRowSchema,
  CEO_MODES,
  type CeoMode,
  CONNECTOR_KINDS,
  HARNESS_KINDS,
  Nullable,
  OneOf,
  project,
  PROMPT_PROFILES,
  SCHEDULE_CATCH_UPS,
  type Static,
  UsageCountersSchema,
  usageCounters,
} from "@cadre/model";
import type {
  AgentRow,
  AgentSessionRow,
  ApiTokenRow,
  ApprovalEventRow,
  ApprovalRow,
  CompanyRow,
  RunEventRow,
  RunRow,
  ScheduleRow,
} from "@cadre/store";
import { Type } from "typebox";
import type { WakeAnswer } from "../wakes.js";
import { scrubEventTexts } from "../feed/scrub.js";

const Id = (description?: string) => Type.String(description ? { description } : {});
const Time = (description = "ISO-8601 time, UTC.") => Type.String({ description });
const strict = { additionalProperties: false } as const;

/** A company as the API lists it: the whole record. */
export const CompanyViewSchema = Type.Object({ ...CompanyRowSchema.properties }, strict);
export type CompanySummaryView = Static<typeof CompanyViewSchema>;

export const CompanyDetailSchema = Type.Object(
  {
    ...CompanyViewSchema.properties,
    ceoAgentId: Id("The CEO agent's id."),
    ceoMode: OneOf(CEO_MODES, { description: "The CEO's mode (resolved in code from the company's state)." }),
    ceoModeReason: Type.String({ description: "Why the CEO is in this mode." }),
    toolsInMode: Type.Array(Type.String(), {
      description: "The company tools whose calls can succeed for the CEO in this mode (modeOffer).",
    }),
    toolsOffered: Type.Array(Type.String(), {
      description:
        "The company tools the CEO's session is given in this mode, in the order offered (modeOffer); those not in toolsInMode are refused in this mode.",
    }),
    operatorActions: Type.Array(OneOf(OPERATOR_ACTIONS_LIST), {
      description:
        "The operator's actions this mode offers (modeOffer): start_team_building (wake with that trigger), decide_strategy (a strategy is pending).",
    }),
    connectors: Type.Array(
      Type.Object(
        {
          id: Id(),
          kind: OneOf(CONNECTOR_KINDS),
          ready: Type.Boolean(),
          missing: Type.Optional(Type.String({ description: "What keeps it from being ready." })),
          checkedAt: Nullable(Time("When its probes last ran; null when never.")),
        },
        strict,
      ),
      { description: "The connectors' readiness (details: GET /api/companies/{id}/connectors)." },
    ),
  },
  strict,
);
export type CompanyView = Static<typeof CompanyDetailSchema>;

export function companySummaryView(c: CompanyRow): CompanySummaryView {
  return project(CompanyViewSchema, c, {});
}

export function companyView(
  company: CompanyRow,
  state: CompanyState,
  env: NodeJS.ProcessEnv,
  probes?: ProbeBook,
): CompanyView {
  return {
    ...companySummaryView(company),
    ceoAgentId: state.ceo.id,
    ceoMode: state.mode,
    ceoModeReason: state.modeReason,
    toolsInMode: [...modeOffer(state.mode).tools],
    toolsOffered: [...modeOffer(state.mode).offered],
    operatorActions: [...modeOffer(state.mode).operatorActions],
    connectors: state.connectors.map((c) => {
      const v = connectorView(c, env, probes);
      return {
        id: v.id,
        kind: v.kind,
        ready: v.ready,
        ...(v.missing !== undefined ? { missing: v.missing } : {}),
        checkedAt: v.checkedAt,
      };
    }),
  };
}

// A connector's view (readiness and its probes, models with their windows, secret-free config) is
// built in the company layer, so the CLI renders the same view without loading the server.
export {
  type ConnectorTestView,
  ConnectorTestViewSchema,
  connectorTestView,
  type ConnectorView,
  ConnectorViewSchema,
  connectorView,
  ProbeViewSchema,
} from "@cadre/company";

/** An agent as the API answers it: the whole record. */
export const AgentViewSchema = Type.Object({ ...AgentRowSchema.properties }, strict);
export type AgentView = Static<typeof AgentViewSchema>;

export function agentView(a: AgentRow): AgentView {
  return project(AgentViewSchema, a, {});
}

export const TerminationViewSchema = Type.Object(
  {
    ...AgentViewSchema.properties,
    tasksReturned: Type.Array(
      Type.Object(
        {
          taskId: Id(),
          title: Type.String(),
          toAgentId: Id("The agent it is assigned to now: its creator, or the CEO."),
          toName: Type.String(),
        },
        strict,
      ),
      {
        description:
          "The agent's open tasks, each back with its creator (or the CEO), who is woken for it (trigger task_unassigned).",
      },
    ),
    wakesCancelled: Type.Integer({ description: "Its wake reasons still pending, cancelled." }),
  },
  strict,
);
export type TerminationView = Static<typeof TerminationViewSchema>;

export function terminationView(t: Termination): TerminationView {
  return {
    ...agentView(t.agent),
    tasksReturned: t.returned.map((r) => ({ ...r })),
    wakesCancelled: t.cancelledWakes,
  };
}

export const SessionSwitchViewSchema = Type.Object(
  {
    action: OneOf(["switch", "handoff-then-switch", "none"], {
      description:
        "switch: the next wake resumes the kept session on the new model; handoff-then-switch: its window was closed and the next wake starts fresh from the handoff; none: no session kept (or the live session decided).",
    }),
    reason: Type.String(),
    fromSession: Type.Optional(Type.String({ description: "The native session the handoff closed." })),
    handoffBytes: Type.Optional(Type.Integer({ minimum: 0, description: "The handoff's size in bytes." })),
  },
  strict,
);

export const ModelChangeViewSchema = Type.Object(
  {
    agent: AgentViewSchema,
    from: Type.String({ description: "The model before." }),
    fromConnectorId: Type.Optional(Id("The connector before, when the agent moved to another one.")),
    changed: Type.Boolean(),
    live: OneOf(["switch", "handoff-then-switch", "no live session"], {
      description: "What the live session did.",
    }),
    /** What became of the agent's kept session between wakes (MC-13). */
    session: SessionSwitchViewSchema,
  },
  strict,
);
export type ModelChangeView = Static<typeof ModelChangeViewSchema>;

export function modelChangeView(m: ModelChange): ModelChangeView {
  return {
    agent: agentView(m.agent),
    from: m.from,
    ...(m.fromConnectorId !== undefined ? { fromConnectorId: m.fromConnectorId } : {}),
    changed: m.changed,
    live: m.live,
    session: {
      action: m.session.action,
      reason: m.session.reason,
      ...(m.session.fromSession !== undefined ? { fromSession: m.session.fromSession } : {}),
      ...(m.session.handoffBytes !== undefined ? { handoffBytes: m.session.handoffBytes } : {}),
    },
  };
}

const PendingHandoffSchema = Type.Object(
  {
    reason: Type.String({ description: "Why the window was closed (a rollover, a model switch)." }),
    handoff: Type.String({ description: "The code-built handoff the next session starts from." }),
    fromSession: Nullable(Id("The native session it replaces.")),
    tokensBefore: Nullable(Type.Integer({ minimum: 0, description: "Tokens in the window it closed." })),
  },
  strict,
);

export const AgentSessionViewSchema = Type.Object(
  {
    agentId: Id(),
    companyId: Id(),
    harness: OneOf(HARNESS_KINDS),
    connectorId: Id("The connector the session was built on."),
    model: Type.String({ description: "The model the session continues on." }),
    sessionId: Nullable(
      Id("The Pi session id, Claude Code session id or Codex thread id; null: the next wake starts fresh."),
    ),
    sessionFile: Nullable(Type.String({ description: "Pi: the session file." })),
    reserveTokens: Nullable(
      Type.Integer({ description: "Pi: compaction.reserveTokens frozen at the last start/resume." }),
    ),
    tokensInWindow: Nullable(
      Type.Integer({ description: "Tokens in the window at the end of the last run." }),
    ),
    rolledOver: Type.Boolean({
      description: "The session began from a rollover's or a model switch's handoff.",
    }),
    /** A pending handoff: the next wake starts a fresh session from it. */
    bootstrap: Nullable(PendingHandoffSchema),
    runningRunId: Nullable(Id("The run holding the session now (the session lock).")),
    lastRunId: Nullable(Id()),
    previousSessionId: Nullable(Id("The native session closed most recently.")),
    createdAt: Time(),
    lastUsedAt: Time(),
  },
  strict,
);
export type AgentSessionView = Static<typeof AgentSessionViewSchema>;

export const AgentSessionAnswerSchema = Type.Object(
  {
    agentId: Id(),
    /** The kept session; null when none is kept. */
    session: Nullable(AgentSessionViewSchema),
  },
  strict,
);
export type AgentSessionAnswer = Static<typeof AgentSessionAnswerSchema>;

function pendingHandoff(bootstrap: unknown): AgentSessionView["bootstrap"] {
  const b = bootstrap as {
    reason?: unknown;
    handoff?: unknown;
    fromSession?: unknown;
    tokensBefore?: unknown;
  } | null;
  if (typeof b !== "object" || b === null) return null;
  return {
    reason: typeof b.reason === "string" ? b.reason : "",
    handoff: typeof b.handoff === "string" ? b.handoff : "",
    fromSession: typeof b.fromSession === "string" ? b.fromSession : null,
    tokensBefore: typeof b.tokensBefore === "number" ? b.tokensBefore : null,
  };
}

/** An agent's kept session, without its digest, prompt and vendor counters (what the next wake needs, not the operator). */
export function agentSessionView(r: AgentSessionRow): AgentSessionView {
  return {
    agentId: r.agentId,
    companyId: r.companyId,
    harness: r.harness,
    connectorId: r.connectorId,
    model: r.model,
    sessionId: r.sessionId,
    sessionFile: r.sessionFile,
    reserveTokens: r.reserveTokens,
    tokensInWindow: r.tokensInWindow,
    rolledOver: r.rolledOver,
    bootstrap: pendingHandoff(r.bootstrap),
    runningRunId: r.runningRunId,
    lastRunId: r.lastRunId,
    previousSessionId: r.previousSessionId,
    createdAt: r.createdAt,
    lastUsedAt: r.lastUsedAt,
  };
}

export const SessionResetViewSchema = Type.Object(
  {
    agentId: Id(),
    reset: Type.Boolean({ description: "False when no session was kept." }),
    previousSessionId: Nullable(Id("The native session forgotten (null: none, or only a pending handoff).")),
  },
  strict,
);
export type SessionResetView = Static<typeof SessionResetViewSchema>;

export const KeyViewSchema = Type.Object(
  {
    id: Id(),
    companyId: Id(),
    agentId: Id(),
    runId: Nullable(Id("The run the key was minted for (then revoked when it ends).")),
    label: Type.String(),
    createdAt: Time(),
    revokedAt: Nullable(Time()),
  },
  strict,
);
export type KeyView = Static<typeof KeyViewSchema>;

export const MintedKeyViewSchema = Type.Object(
  { ...KeyViewSchema.properties, token: Type.String({ description: "The secret, shown only here." }) },
  strict,
);
export type MintedKeyView = Static<typeof MintedKeyViewSchema>;

export function keyView(k: ApiTokenRow): KeyView {
  return {
    id: k.id,
    companyId: k.companyId,
    agentId: k.agentId,
    runId: k.runId,
    label: k.label,
    createdAt: k.createdAt,
    revokedAt: k.revokedAt,
  };
}

export const ApprovalViewSchema = Type.Object(
  {
    ...ApprovalRowSchema.properties,
    decidedBy: Type.Optional(
      Nullable(Type.String({ description: 'Who decided it ("operator", …); null while pending.' })),
    ),
    modeIfDecided: Type.Optional(
      Type.Object(
        { approve: OneOf(CEO_MODES), reject: OneOf(CEO_MODES), "request-revision": OneOf(CEO_MODES) },
        {
          ...strict,
          description:
            "A pending approval only: the CEO's mode after each decision, from the same mode function the server decides with.",
        },
      ),
    ),
  },
  strict,
);
export type ApprovalView = Static<typeof ApprovalViewSchema>;

/** What the list adds to each approval: who decided it, and for a pending one what each decision does to the CEO's mode. */
export function approvalInboxView(
  a: ApprovalRow,
  history: ApprovalEventRow[],
  state: CompanyState,
): ApprovalView {
  const decision = history.findLast((e) => e.fromStatus === "pending");
  const view: ApprovalView = { ...approvalView(a), decidedBy: decision?.actor ?? null };
  if (a.status === "pending") {
    const latest = state.latestStrategy?.id === a.id;
    const after = (s: "approved" | "rejected" | "revision_requested") =>
      latest ? modeAfterDecision(state.modeState, s) : state.mode;
    view.modeIfDecided = {
      approve: after("approved"),
      reject: after("rejected"),
      "request-revision": after("revision_requested"),
    };
  }
  return view;
}

export function approvalView(a: ApprovalRow): ApprovalView {
  return project(ApprovalViewSchema, a, {});
}

/** One status change of an approval: the whole record. */
export const ApprovalEventViewSchema = Type.Object({ ...ApprovalEventRowSchema.properties }, strict);

export const ApprovalHistoryViewSchema = Type.Object(
  { ...ApprovalViewSchema.properties, history: Type.Array(ApprovalEventViewSchema) },
  strict,
);
export type ApprovalHistoryView = Static<typeof ApprovalHistoryViewSchema>;

export function approvalHistoryView(a: ApprovalRow, history: ApprovalEventRow[]): ApprovalHistoryView {
  return {
    ...approvalView(a),
    history: history.map((e) => project(ApprovalEventViewSchema, e, {})),
  };
}

export const DecisionViewSchema = Type.Object(
  { approval: ApprovalViewSchema, modeBefore: OneOf(CEO_MODES), modeAfter: OneOf(CEO_MODES) },
  strict,
);
export type DecisionView = Static<typeof DecisionViewSchema>;

export function decisionView(d: DecisionResult): DecisionView {
  return { approval: approvalView(d.approval), modeBefore: d.modeBefore, modeAfter: d.modeAfter };
}

export const RunViewSchema = Type.Object({ ...RunRowSchema.properties, usage: UsageCountersSchema }, strict);
/** A run as the API has always sent it: its usage under the counters' documented names. */
export type RunView = Static<typeof RunViewSchema>;

export function runView(run: RunRow): RunView {
  return project(RunViewSchema, run, {
    usage: usageCounters(run.usage),
    // Provider text is redacted of every configured key where it enters; what is shaped like a
    // credential is scrubbed here too (a row an older build wrote, a key nobody configured).
    error: run.error === null ? null : scrubSecrets(run.error),
  });
}

export const RunEventViewSchema = Type.Object(
  {
    id: Type.Integer({ description: "Global, increasing: the feed's order." }),
    runId: Id(),
    companyId: Id(),
    seq: Type.Integer({ minimum: 0, description: "Position inside its run, from 0." }),
    type: Type.String({ description: "The AgentEvent's type." }),
    data: Type.Unknown({ description: "The AgentEvent." }),
    at: Time(),
  },
  strict,
);
export type RunEventView = Static<typeof RunEventViewSchema>;

export function runEventView(e: RunEventRow): RunEventView {
  return {
    id: e.id,
    runId: e.runId,
    companyId: e.companyId,
    seq: e.seq,
    type: e.type,
    data: scrubEventTexts(e.type, e.data),
    at: e.at,
  };
}

export const RunEventsPageSchema = Type.Object(
  { run: RunViewSchema, events: Type.Array(RunEventViewSchema) },
  strict,
);
export type RunEventsPage = Static<typeof RunEventsPageSchema>;

const WAKE_VIA = OneOf(["in-process", "queue"], {
  description: "Run by this server, or by a worker of the queue.",
});
const COALESCED = Type.Boolean({ description: "The request joined a wake of the agent still waiting." });

export const WakeStartedSchema = Type.Union([
  Type.Object(
    {
      runId: Id(),
      profile: OneOf(PROMPT_PROFILES),
      trigger: Type.String(),
      mode: OneOf(CEO_MODES),
      cue: Type.String({ description: "The initial user turn." }),
      cueTokens: Type.Integer({ minimum: 0, description: "The cue's length in o200k tokens." }),
      via: WAKE_VIA,
      wakeId: Nullable(Id("The queued wake; null in-process.")),
      coalesced: COALESCED,
      status: Type.Literal("started"),
    },
    strict,
  ),
  Type.Object(
    {
      runId: Type.Null(),
      profile: Type.Null(),
      trigger: Type.Null(),
      mode: Type.Null(),
      cue: Type.Null(),
      cueTokens: Type.Null(),
      via: Type.Literal("queue"),
      wakeId: Id("The queued wake."),
      coalesced: COALESCED,
      status: Type.Literal("queued", {
        description: "No worker started the run within the wait: the run fields are null.",
      }),
    },
    strict,
  ),
]);
export type WakeStartedView = Static<typeof WakeStartedSchema>;

export function wakeStartedView(w: WakeAnswer): WakeStartedView {
  if (!w.run)
    return {
      runId: null,
      profile: null,
      trigger: null,
      mode: null,
      cue: null,
      cueTokens: null,
      via: "queue",
      wakeId: w.wakeId ?? "",
      coalesced: w.coalesced,
      status: "queued",
    };
  return {
    runId: w.run.id,
    profile: w.run.profile,
    trigger: w.run.trigger,
    mode: w.mode ?? (w.run.mode as CeoMode),
    cue: w.cue ?? w.run.cue,
    cueTokens: w.cueTokens ?? 0,
    via: w.via,
    wakeId: w.wakeId,
    coalesced: w.coalesced,
    status: "started",
  };
}

export { AgentUsageReportSchema, CompanyUsageReportSchema, RunUsageReportSchema };

// Tasks and wake requests: the company layer builds these views (the CLI's --json and list_my_tasks
// read them offline too); the API answers them as they are.
export { TaskDetailViewSchema, taskView, TaskViewSchema, wakeRequestView, WakeRequestViewSchema };
export type { TaskDetailView, TaskView, WakeRequestView };

/** What a task change answers: the task, its assignee's name and whom the change wakes (by name). */
export const TaskChangeViewSchema = Type.Object(
  {
    ...TaskViewSchema.properties,
    assignee: Nullable(Type.String({ description: "The assignee's name; null: nobody." })),
    wakes: Type.Array(Type.String(), { description: "The agents this change wakes, by name." }),
  },
  strict,
);
export type TaskChangeView = Static<typeof TaskChangeViewSchema>;

export const ScheduleViewSchema = Type.Object(
  {
    id: Type.String(),
    agentId: Type.String(),
    everySeconds: Nullable(Type.Integer()),
    cron: Nullable(Type.String()),
    timezone: Type.String(),
    catchUp: OneOf(SCHEDULE_CATCH_UPS),
    nextDueAt: Type.String(),
    lastTickAt: Nullable(Type.String()),
  },
  strict,
);

export type ScheduleView = Static<typeof ScheduleViewSchema>;

export function scheduleView(s: ScheduleRow): ScheduleView {
  return {
    id: s.id,
    agentId: s.agentId,
    everySeconds: s.everySeconds,
    cron: s.cron,
    timezone: s.timezone,
    catchUp: s.catchUp,
    nextDueAt: s.nextDueAt,
    lastTickAt: s.lastTickAt,
  };
}
