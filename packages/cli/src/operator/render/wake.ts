// `cadre wake`, rendered once for every way a wake runs (in this process, through the PostgreSQL
// queue, by a server): how it starts, its events as they come, how it ended, the --json line.
import { usageSummaryJson } from "@cadre/model";
import { createRenderer } from "../../render.js";
import type { WakeOutcome, WakeWatcher } from "../port.js";
import { sessionLine } from "./sessions.js";

export function wakeWatcher(write: (text: string) => void): WakeWatcher {
  let render: ReturnType<typeof createRenderer> | undefined;
  return {
    queued: ({ wakeId, joined, agentName }) =>
      write(
        `${joined ? `joined wake ${wakeId}, already waiting for ${agentName}` : `wake ${wakeId} queued`}; a worker runs it (cadre worker, or cadre serve)\n`,
      ),
    // The profile is named when it is not the default one.
    started(s) {
      write(
        `run ${s.runId} — mode ${s.mode}, trigger ${s.trigger}${s.profile === "semantic" ? "" : `, profile ${s.profile}`}\ncue "${s.cue}" (${s.cueTokens} tokens)\n`,
      );
      render = createRenderer(write, s.agentName);
    },
    event: (event) => render?.(event),
    notice: (line) => write(`${line}\n`),
  };
}

/** The human end of a wake (to the human stream). */
export function wakeEndText(outcome: WakeOutcome): string {
  if (outcome.kind === "queued")
    return `wake ${outcome.wakeId} queued: no worker has started it yet; its run appears in the dashboard and \`cadre agents list\` once one does (start one with \`cadre worker\`)\n`;
  return `mode: ${outcome.modeBefore} → ${outcome.modeAfter}\nsession: ${sessionLine(outcome.session)}\n`;
}

/** The --json line. */
export function wakeJson(outcome: WakeOutcome, withFaults: boolean): Record<string, unknown> {
  if (outcome.kind === "queued")
    return { wakeId: outcome.wakeId, agentId: outcome.agentId, status: "queued" };
  return {
    runId: outcome.runId,
    agentId: outcome.agentId,
    terminal: outcome.terminal,
    modeBefore: outcome.modeBefore,
    modeAfter: outcome.modeAfter,
    initialCue: { text: outcome.cue, tokens: outcome.cueTokens },
    usage: usageSummaryJson(outcome.usage),
    session: outcome.session,
    ...(withFaults ? { replays: outcome.replays ?? 0, rollovers: outcome.rollovers ?? 0 } : {}),
    ...(outcome.wakeId !== undefined ? { wakeId: outcome.wakeId, via: "queue" } : {}),
    ...(outcome.stopReason ? { stopReason: outcome.stopReason } : {}),
  };
}
