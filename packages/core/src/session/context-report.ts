// What a stored run says about its session's context (`cadre sessions inspect`): the last context
// snapshot (emitted before each terminal event) and the history of compactions, recoveries and
// rollovers. Display data only: nothing here ever re-creates a live latch (MC-9).

import type { AgentEvent, ContextSnapshot, EventOf, TerminalStatus } from "../types.js";

export interface ContextReport {
  /** The controller's state at the end of the run's last product turn; absent for harnesses that record none. */
  snapshot?: ContextSnapshot;
  compactions: Array<{
    reason: EventOf<"compaction_start">["reason"] | "unknown";
    ok: boolean;
    error?: string;
    tokensBefore?: number;
    tokensAfter?: number;
  }>;
  recoveries: Array<{ action: EventOf<"recovery">["action"]; reason: string }>;
  rollovers: Array<Omit<EventOf<"rollover">, "type">>;
  /** Which native session each turn ran in: started, resumed, or healed after a failed resume. */
  sessions: Array<Omit<EventOf<"session">, "type">>;
  /** MC-12 decisions that acted (strip images, handoff rebuild, fail closed), in order. */
  compressions: Array<Omit<EventOf<"compression">, "type">>;
  replays: number;
  terminal?: { status: TerminalStatus; reason?: string };
}

export function contextReportOf(events: Iterable<AgentEvent>): ContextReport {
  const report: ContextReport = {
    compactions: [],
    recoveries: [],
    rollovers: [],
    sessions: [],
    compressions: [],
    replays: 0,
  };
  let openReason: EventOf<"compaction_start">["reason"] | undefined;
  for (const event of events) {
    switch (event.type) {
      case "context":
        report.snapshot = event.snapshot;
        break;
      case "compaction_start":
        openReason = event.reason;
        break;
      case "compaction_end":
        report.compactions.push({
          reason: openReason ?? "unknown",
          ok: event.ok,
          ...(event.error !== undefined ? { error: event.error } : {}),
          ...(event.tokensBefore !== undefined ? { tokensBefore: event.tokensBefore } : {}),
          ...(event.tokensAfter !== undefined ? { tokensAfter: event.tokensAfter } : {}),
        });
        openReason = undefined;
        break;
      case "recovery":
        report.recoveries.push({ action: event.action, reason: event.reason });
        if (event.action === "replay") report.replays += 1;
        break;
      case "rollover": {
        const { type: _type, ...rest } = event;
        report.rollovers.push(rest);
        break;
      }
      case "session": {
        const { type: _type, ...rest } = event;
        report.sessions.push(rest);
        break;
      }
      case "compression": {
        const { type: _type, ...rest } = event;
        report.compressions.push(rest);
        break;
      }
      case "terminal":
        report.terminal =
          event.reason === undefined
            ? { status: event.status }
            : { status: event.status, reason: event.reason };
        break;
      default:
        break;
    }
  }
  return report;
}
