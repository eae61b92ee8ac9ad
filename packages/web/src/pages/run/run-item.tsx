// One row of the run view: a turn header, streamed text or thinking, a tool call (tool-call.tsx),
// a model call's usage, an error, a compaction, a context-policy decision (rollover, recovery,
// compression, continuation), what the harness offers the model, the terminal state.
import type { RunItem } from "../../model/run-fold.js";
import { formatTokens } from "../../model/format.js";
import type { StopKind } from "../../model/run-read.js";
import { hitRate } from "../../model/usage-series.js";
import { ToolCallView } from "./tool-call.js";

const STOP_WORDS: Record<StopKind, string> = {
  budget: "stopped by the budget",
  run_cap: "stopped by the run's cap",
};

export interface RunItemProps {
  item: RunItem;
  companyId: string;
  taskTitles: ReadonlyMap<string, string>;
  /** Set when spend control stopped the run: the end row names the stop, the header tells it. */
  stop: StopKind | undefined;
  expanded: boolean;
  onToggle(key: string): void;
}

export function RunItemView({ item, companyId, taskTitles, stop, expanded, onToggle }: RunItemProps) {
  switch (item.kind) {
    case "turn":
      return (
        <div class="ev turn">
          Model call {item.turn}
          {item.model && <span class="muted"> · {item.model}</span>}
          {item.stopReason && <span class="muted"> · stopped: {item.stopReason}</span>}
        </div>
      );
    case "text":
      return (
        <div class="ev text">
          <p>
            {item.text}
            {item.streaming && <span class="cursor" aria-label="streaming" />}
          </p>
        </div>
      );
    case "thinking":
      return <div class="ev thinking">{item.redacted ? "(thinking, redacted)" : item.text}</div>;
    case "tool":
      return (
        <ToolCallView
          item={item}
          companyId={companyId}
          taskTitles={taskTitles}
          expanded={expanded}
          onToggle={onToggle}
        />
      );
    case "usage": {
      const u = item.usage;
      return (
        <div class="ev usage">
          usage of call {item.call}: {formatTokens(u.input)} in · {formatTokens(u.output)} out ·{" "}
          {formatTokens(u.cacheRead)} cache read · {formatTokens(u.cacheWrite)} cache write · hit rate{" "}
          {(hitRate(u) * 100).toFixed(1)}%
        </div>
      );
    }
    case "compaction":
      return <div class={`ev compaction ${item.ok === false ? "failed" : ""}`}>{item.text}</div>;
    case "policy":
      return (
        <div class={`ev policy ${item.policy} ${item.ok === false ? "failed" : ""}`} data-testid="run-policy">
          {item.text}
        </div>
      );
    case "harness":
      return (
        <div class={`ev harness ${item.ok ? "" : "failed"}`} data-testid="run-harness-tools">
          {item.text}
        </div>
      );
    case "error":
      return (
        <div class="ev error" role="note" {...(item.code ? { title: item.code } : {})}>
          Error: {item.message}
        </div>
      );
    case "unknown":
      return (
        <div class="ev unknown muted">
          {item.vendor} event “{item.vendorType}” (carried as is)
        </div>
      );
    case "terminal":
      return (
        <div class={`ev terminal ${item.status}`} data-testid="run-terminal">
          {/* A spend-control stop is told once, in the header's outcome; here only named. */}
          Run ended: <strong>{stop ? STOP_WORDS[stop] : item.status}</strong>
          {!stop && item.reason && ` — ${item.reason}`}
        </div>
      );
  }
}
