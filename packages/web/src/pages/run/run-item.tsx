// One row of the run view: a turn header, streamed text or thinking, a tool call with its
// arguments and result, a model call's usage, an error, a compaction, a context-policy decision
// (rollover, recovery, compression, continuation), what the harness offers the model, the terminal state.
import { taskToolSummary } from "../../model/task-board.js";
import type { RunItem } from "../../model/run-fold.js";
import { formatTokens } from "../../model/format.js";
import { hitRate } from "../../model/usage-series.js";

/** Lines of arguments or results shown before "Show all". */
const CLIP_LINES = 10;

export interface RunItemProps {
  item: RunItem;
  expanded: boolean;
  onToggle(key: string): void;
}

export function RunItemView({ item, expanded, onToggle }: RunItemProps) {
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
        <div class={`ev tool ${item.state}`} data-testid="tool-call">
          <div class="tool-head">
            <span class="tool-name">{item.name}</span>{" "}
            <span
              class={`badge ${item.state === "failed" || item.state === "refused" ? "warn" : item.state === "done" ? "ok" : "info"}`}
            >
              {item.state}
            </span>
          </div>
          {item.state === "done" && taskToolSummary(item.result) && (
            <p class="task-effect" data-testid="task-effect">
              task: {taskToolSummary(item.result)}
            </p>
          )}
          <Clipped
            label="Arguments"
            text={item.args || "(no arguments)"}
            expanded={expanded}
            onToggle={() => onToggle(item.key)}
          />
          {item.result !== undefined && (
            <Clipped
              label={item.state === "failed" || item.state === "refused" ? "Error result" : "Result"}
              text={item.result}
              expanded={expanded}
              onToggle={() => onToggle(item.key)}
            />
          )}
        </div>
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
        <div class="ev error" role="note">
          Error{item.code ? ` (${item.code})` : ""}: {item.message}
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
          Run ended: <strong>{item.status}</strong>
          {item.reason && ` — ${item.reason}`}
        </div>
      );
  }
}

function Clipped({
  label,
  text,
  expanded,
  onToggle,
}: {
  label: string;
  text: string;
  expanded: boolean;
  onToggle(): void;
}) {
  const lines = text.split("\n");
  const clipped = !expanded && lines.length > CLIP_LINES;
  return (
    <div class="clipped">
      <div class="clipped-label">{label}</div>
      <pre>{clipped ? `${lines.slice(0, CLIP_LINES).join("\n")}\n…` : text}</pre>
      {lines.length > CLIP_LINES && (
        <button type="button" class="link" aria-expanded={expanded} onClick={onToggle}>
          {expanded ? "Show less" : `Show all ${lines.length} lines`}
        </button>
      )}
    </div>
  );
}
