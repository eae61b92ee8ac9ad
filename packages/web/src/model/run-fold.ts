// Folds a run's AgentEvents into what the run view shows: one item per streamed text, thinking
// block, tool call (its arguments as they stream, then the result), model call usage, error,
// compaction, a context-policy decision (rollover, recovery, compression, continuation), what a
// harness said it offers the model, and the terminal state;
// the end-of-turn context snapshot is kept aside for the summary, not added as a row. Events
// arrive in `seq` order; one whose seq was already folded is a repeat and is ignored, so replaying
// a stream over a view never doubles anything.
//
// The fold mutates its item array in place (a 10,000-event run must not be copied per event) but
// replaces an item object whenever it changes, so a row can be memoised on its item's identity.
import type { AgentEvent, ContextSnapshot, Usage } from "../api/types.js";
import {
  compressionText,
  continuationText,
  harnessToolsText,
  recoveryText,
  rolloverText,
  sessionText,
} from "./policy-text.js";

/** `refused`: the harness had no such tool and answered the model with an error, running nothing. */
export type ToolState = "composing" | "called" | "running" | "done" | "failed" | "refused";

export type RunItem =
  | { kind: "turn"; key: string; turn: number; model?: string; stopReason?: string }
  | { kind: "text"; key: string; text: string; streaming: boolean }
  | { kind: "thinking"; key: string; text: string; streaming: boolean; redacted: boolean }
  | { kind: "tool"; key: string; id: string; name: string; args: string; state: ToolState; result?: string }
  | { kind: "usage"; key: string; call: number; usage: Usage }
  | { kind: "compaction"; key: string; text: string; ok?: boolean }
  /** `ok` is false when the rule failed closed (no replay, request not sent). */
  | {
      kind: "policy";
      key: string;
      policy: "rollover" | "recovery" | "compression" | "session" | "continuation" | "model_drift";
      text: string;
      ok?: boolean;
    }
  /** What the harness offers the model (its own report); `ok` is false when it is not the company's decision. */
  | { kind: "harness"; key: string; text: string; tools: string[]; ok: boolean }
  | { kind: "error"; key: string; message: string; code?: string }
  | { kind: "unknown"; key: string; vendor: string; vendorType: string }
  | { kind: "terminal"; key: string; status: "done" | "failed" | "cancelled"; reason?: string };

export type RunState = "running" | "done" | "failed" | "cancelled";

export class RunFold {
  readonly items: RunItem[] = [];
  /** Usage of each model call, in order: the cache chart's data. */
  readonly calls: Usage[] = [];
  state: RunState = "running";
  /** The latest end-of-turn context snapshot, if the harness reports one. */
  context: ContextSnapshot | undefined;
  /** Events folded (repeats excluded). */
  events = 0;
  repeats = 0;
  /** Events whose seq skipped ahead: a stream that lost something (should stay 0). */
  gaps = 0;
  /** Bumped on every change: what a view compares to know it must render. */
  version = 0;

  private nextSeq = 0;
  /** Block index (within the current assistant message) → item position. */
  private blocks = new Map<number, number>();
  /** Tool call id → item position. */
  private tools = new Map<string, number>();
  /** Turn number → its header item's position. */
  private turns = new Map<number, number>();

  /** Folds one event; false when it was a repeat. */
  apply(seq: number, event: AgentEvent): boolean {
    if (seq < this.nextSeq) {
      this.repeats++;
      return false;
    }
    if (seq > this.nextSeq) this.gaps++;
    this.nextSeq = seq + 1;
    this.events++;
    this.version++;
    this.fold(seq, event);
    return true;
  }

  private push(item: RunItem): number {
    this.items.push(item);
    return this.items.length - 1;
  }

  private update<K extends RunItem["kind"]>(
    at: number | undefined,
    kind: K,
    change: (item: Extract<RunItem, { kind: K }>) => Partial<Extract<RunItem, { kind: K }>>,
  ): boolean {
    const item = at === undefined ? undefined : this.items[at];
    if (!item || item.kind !== kind) return false;
    const typed = item as Extract<RunItem, { kind: K }>;
    this.items[at as number] = { ...typed, ...change(typed) };
    return true;
  }

  private toolAt(id: string, name: string, seq: number): number {
    let at = this.tools.get(id);
    if (at === undefined) {
      at = this.push({ kind: "tool", key: `t${seq}`, id, name, args: "", state: "called" });
      this.tools.set(id, at);
    }
    return at;
  }

  private fold(seq: number, e: AgentEvent): void {
    const key = `e${seq}`;
    switch (e.type) {
      case "turn_start":
        this.blocks.clear();
        this.turns.set(
          e.turn,
          this.push({ kind: "turn", key, turn: e.turn, ...(e.model ? { model: e.model } : {}) }),
        );
        return;
      case "turn_end":
        this.update(this.turns.get(e.turn), "turn", () => ({ stopReason: e.stopReason }));
        return;
      case "text_start":
        this.blocks.set(e.index, this.push({ kind: "text", key, text: "", streaming: true }));
        return;
      case "text_delta":
        if (!this.update(this.blocks.get(e.index), "text", (i) => ({ text: i.text + e.delta })))
          this.blocks.set(e.index, this.push({ kind: "text", key, text: e.delta, streaming: true }));
        return;
      case "text_end":
        if (!this.update(this.blocks.get(e.index), "text", () => ({ text: e.text, streaming: false })))
          this.push({ kind: "text", key, text: e.text, streaming: false });
        return;
      case "thinking_start":
        this.blocks.set(
          e.index,
          this.push({ kind: "thinking", key, text: "", streaming: true, redacted: e.redacted ?? false }),
        );
        return;
      case "thinking_delta":
        if (!this.update(this.blocks.get(e.index), "thinking", (i) => ({ text: i.text + e.delta })))
          this.blocks.set(
            e.index,
            this.push({ kind: "thinking", key, text: e.delta, streaming: true, redacted: false }),
          );
        return;
      case "thinking_end":
        if (
          !this.update(this.blocks.get(e.index), "thinking", () => ({
            text: e.thinking,
            streaming: false,
            redacted: e.redacted ?? false,
          }))
        )
          this.push({
            kind: "thinking",
            key,
            text: e.thinking,
            streaming: false,
            redacted: e.redacted ?? false,
          });
        return;
      case "toolcall_start": {
        const at = this.push({ kind: "tool", key, id: e.id, name: e.name, args: "", state: "composing" });
        this.blocks.set(e.index, at);
        this.tools.set(e.id, at);
        return;
      }
      case "toolcall_delta":
        this.update(this.blocks.get(e.index), "tool", (i) => ({ args: i.args + e.delta }));
        return;
      case "toolcall_end":
        this.update(this.toolAt(e.id, e.name, seq), "tool", (i) => ({
          args: formatJson(e.input),
          state: i.state === "composing" ? "called" : i.state,
        }));
        return;
      case "tool_use":
        this.update(this.toolAt(e.id, e.name, seq), "tool", (i) => ({
          args: i.args || formatJson(e.input),
          state: e.refused
            ? "refused"
            : i.state === "done" || i.state === "failed" || i.state === "refused"
              ? i.state
              : "running",
        }));
        return;
      case "tool_result":
        this.update(this.toolAt(e.toolUseId, e.name, seq), "tool", (i) => ({
          state: i.state === "refused" ? "refused" : e.isError ? "failed" : "done",
          result: resultText(e.content),
        }));
        return;
      case "usage":
        this.calls.push(e.usage);
        this.push({ kind: "usage", key, call: this.calls.length, usage: e.usage });
        return;
      case "compaction_start":
        this.push({ kind: "compaction", key, text: `compaction started (${e.reason})` });
        return;
      case "compaction_end":
        this.push({
          kind: "compaction",
          key,
          ok: e.ok,
          text: e.ok
            ? `compaction done${e.tokensBefore !== undefined && e.tokensAfter !== undefined ? `: ${e.tokensBefore} → ${e.tokensAfter} tokens` : ""}`
            : `compaction failed: ${e.error ?? "no reason given"}`,
        });
        return;
      case "rollover":
        this.push({ kind: "policy", key, policy: "rollover", text: rolloverText(e) });
        return;
      case "session":
        this.push({
          kind: "policy",
          key,
          policy: "session",
          text: sessionText(e),
          ok: e.action !== "self-healed",
        });
        return;
      case "recovery":
        this.push({
          kind: "policy",
          key,
          policy: "recovery",
          text: recoveryText(e),
          ok: e.action === "replay",
        });
        return;
      case "compression":
        this.push({
          kind: "policy",
          key,
          policy: "compression",
          text: compressionText(e),
          ok: e.action !== "fail-closed",
        });
        return;
      case "context":
        this.context = e.snapshot;
        return;
      case "harness_tools":
        this.push({
          kind: "harness",
          key,
          text: harnessToolsText(e),
          tools: e.tools,
          ok: e.problem === undefined,
        });
        return;
      case "continuation":
        this.push({
          kind: "policy",
          key,
          policy: "continuation",
          text: continuationText(e),
          ok: e.action !== "lost-handle",
        });
        return;
      case "model_drift":
        this.push({
          kind: "policy",
          key,
          policy: "model_drift",
          text: `model drift: ${
            e.fingerprint
              ? `the model under ${e.declared} was replaced since it was declared (${e.fingerprint.declared} then, ${e.fingerprint.served} now)`
              : `the endpoint served ${e.served} for ${e.declared}`
          }${e.policy === "refuse" ? "; the company refuses it, the run stops" : ""}`,
          ok: false,
        });
        return;
      case "error":
        this.push({ kind: "error", key, message: e.message, ...(e.code ? { code: e.code } : {}) });
        return;
      case "unknown":
        this.push({ kind: "unknown", key, vendor: e.vendor, vendorType: e.vendorType });
        return;
      case "terminal":
        this.state = e.status;
        this.push({ kind: "terminal", key, status: e.status, ...(e.reason ? { reason: e.reason } : {}) });
        return;
      default: {
        // An event type core adds later fails type checking here; at run time (a newer server
        // than this bundle) it is skipped rather than breaking the view.
        const unhandled: never = e;
        void unhandled;
      }
    }
  }
}

/** Folds a whole list (tests, and a finished run loaded at once). */
export function foldRun(events: ReadonlyArray<{ seq: number; event: AgentEvent }>): RunFold {
  const fold = new RunFold();
  for (const e of events) fold.apply(e.seq, e.event);
  return fold;
}

function formatJson(value: unknown): string {
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2);
  } catch {
    return String(value);
  }
}

/** A tool result as text: its text parts, images named by type; a JSON text is pretty-printed. */
function resultText(content: ReadonlyArray<{ type: string; text?: string; mimeType?: string }>): string {
  return content
    .map((c) => {
      if (c.type !== "text") return `[${c.mimeType ?? "image"}]`;
      const text = c.text ?? "";
      if (!/^\s*[[{]/.test(text)) return text;
      try {
        return JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        return text;
      }
    })
    .join("\n");
}
