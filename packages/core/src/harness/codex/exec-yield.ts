// MC-14 for Codex: exec yields. Codex's shell tool runs a command and hands the model its output
// after a yield time even when the command has not finished ("Process running with session ID N";
// the model may poll it with write_stdin). When the turn then ends, the command is still running,
// and nothing in the protocol is a handle to it: the exec stream shows a `command_execution` item
// that started (status "in_progress", no exit code) and never completed before `turn.completed`
// (Codex 0.163, recorded from the real binary: __fixtures__/exec-yield-origin.jsonl); newer builds
// close such an item at turn end with an `item.completed` whose status is still "in_progress"
// (codex-rs exec/src/event_processor_with_jsonl_output.rs, reconcile_unfinished_started_items). The
// code-mode `exec` tool says the same in words ("Script running with cell ID N"; its `wait` answers
// "Script completed" or "Script terminated" once the cell is done: the tool descriptions of
// codex-rs's code mode).
//
// The heuristic, locked by those fixtures (exec-yield.test.ts): a run yielded when, at its
// `turn.completed`, a command_execution item is open (started, never completed) or its last snapshot
// says it is still running (status in_progress and no exit code, or a running marker in its output
// with no exit code). Items without an id count only on their completion snapshot (MC-14: identities
// are never invented). A continuation turn proves what happened to the work only by the same words:
// a completion snapshot whose output says the work ended (Script completed / Script terminated /
// Process exited with code N) settles it; a snapshot that still says running is evidence it is alive;
// anything else is unproven, and the claim ends as `lost-handle` — never a re-run, never a replay.
import type { ContinuationEvidence } from "../../context/turn-settlement.js";
import type { CodexItem, CodexLine } from "./translate/wire.js";

/** A command Codex left running when its turn ended. */
export interface YieldedCommand {
  itemId: string;
  command: string;
}

const RUNNING = /\b(Script running with cell ID|Process running with session ID)\s+\S+/;
const SETTLED = /\b(Script completed|Script terminated|Process exited with code\s+-?\d+)/;

function isCommand(item: CodexItem | undefined): item is CodexItem {
  return item?.type === "command_execution";
}

function stillRunning(item: CodexItem): boolean {
  const noExit = item.exit_code === undefined || item.exit_code === null;
  return noExit && (item.status === "in_progress" || RUNNING.test(item.aggregated_output ?? ""));
}

/** Reads one exec run's lines; says at its end what it left running and what it proved. */
export class ExecYieldDetector {
  /** Commands by item id: their last snapshot, and whether a completion line closed them. */
  readonly #commands = new Map<string, { item: CodexItem; completed: boolean }>();
  #settled: string | undefined;
  #running = false;

  observe(line: CodexLine): void {
    const item = line.item;
    if (!isCommand(item)) return;
    const completed = line.type === "item.completed";
    if (item.id) {
      const known = this.#commands.get(item.id);
      if (known?.completed) return; // counted once, on its completion snapshot
      if (line.type === "item.started" || line.type === "item.updated" || completed)
        this.#commands.set(item.id, { item, completed });
    } else if (!completed) return; // no identity: only a completion snapshot counts
    if (!completed) return;
    const output = item.aggregated_output ?? "";
    const settled = SETTLED.exec(output);
    if (settled) this.#settled = settled[0];
    else if (stillRunning(item)) this.#running = true;
  }

  /** At `turn.completed`: the commands still running (the yields). */
  yielded(): YieldedCommand[] {
    const out: YieldedCommand[] = [];
    for (const [itemId, { item, completed }] of this.#commands)
      if (!completed || stillRunning(item)) out.push({ itemId, command: item.command ?? "" });
    return out;
  }

  /** What a continuation run proved about the claimed work. */
  evidence(): { evidence: ContinuationEvidence; marker?: string } {
    if (this.#settled !== undefined) return { evidence: "work-settled", marker: this.#settled };
    if (this.#running) return { evidence: "work-running" };
    return { evidence: "unproven" };
  }
}

/**
 * The one continuation turn's prompt: wait for the same work, never start it again. A user-turn text
 * the host sends, locked with the system-prompt texts (MC-7); {commands} lists the yielded commands.
 */
export const EXEC_YIELD_CONTINUATION_TEMPLATE =
  "Your previous turn ended while work you started was still running: {commands}. Do not start it again. Wait for that same process to finish (poll it with write_stdin, empty input, on its session; or wait on its cell) and report how it ended. If you can no longer reach it, say so.";

export function continuationPrompt(yields: readonly YieldedCommand[]): string {
  const commands = yields.map((y) => `\`${y.command || y.itemId}\``).join(", ");
  return EXEC_YIELD_CONTINUATION_TEMPLATE.replace("{commands}", commands);
}

/** Why a claim ended without proof, in words a user can act on. */
export function lostHandleReason(yields: readonly YieldedCommand[]): string {
  const commands = yields.map((y) => `\`${y.command || y.itemId}\``).join(", ");
  return `lost-handle: ${commands} was still running when Codex ended its turn, and the continuation could not prove it survived (Codex stops a turn's commands with its exec process). It was not run again; its outcome is unknown.`;
}
