// The run's facts for a closer look, folded away by default: mode and profile, the cue it was woken
// with, events and tool calls, tokens by kind and the cache hit rate, and the context controller's
// state at the end of the last turn (its own terms: window, threshold, rollover latch).
import type { RunDetail } from "../../api/types.js";
import { formatTokens } from "../../model/format.js";
import { contextText } from "../../model/policy-text.js";
import type { RunFold } from "../../model/run-fold.js";
import { hitRate } from "../../model/usage-series.js";
import type { StreamStatus } from "../../api/event-stream.js";

export function RunSummary({
  run,
  fold,
  stream,
}: {
  run: RunDetail | undefined;
  fold: RunFold;
  stream: StreamStatus;
}) {
  const sum = fold.calls.reduce(
    (s, u) => ({
      input: s.input + u.input,
      output: s.output + u.output,
      cacheRead: s.cacheRead + u.cacheRead,
      cacheWrite: s.cacheWrite + u.cacheWrite,
    }),
    { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  );
  const tools = fold.items.filter((i) => i.kind === "tool").length;
  return (
    <details class="card wide run-details" data-testid="run-details">
      <summary>
        Run details
        {fold.state === "running" && <span class="muted"> · {stream === "live" ? "live" : stream}</span>}
      </summary>
      <dl class="facts">
        {run && (
          <>
            <div>
              <dt>Mode</dt>
              <dd>{run.mode}</dd>
            </div>
            <div>
              <dt>Profile</dt>
              <dd>{run.profile}</dd>
            </div>
          </>
        )}
        <div>
          <dt>Events</dt>
          <dd data-testid="run-event-count">{formatTokens(fold.events)}</dd>
        </div>
        <div>
          <dt>Tool calls</dt>
          <dd>{tools}</dd>
        </div>
        <div>
          <dt>Tokens</dt>
          <dd>
            {formatTokens(sum.input)} in · {formatTokens(sum.output)} out · {formatTokens(sum.cacheRead)}{" "}
            cache read · {formatTokens(sum.cacheWrite)} cache write
          </dd>
        </div>
        <div>
          <dt>Cache hit rate</dt>
          <dd>{(hitRate(sum) * 100).toFixed(1)}%</dd>
        </div>
        {fold.context && (
          <div>
            <dt>Context</dt>
            <dd data-testid="run-context">{contextText(fold.context)}</dd>
          </div>
        )}
      </dl>
      {run && (
        <div class="cue">
          <div class="clipped-label">Cue (initial user turn)</div>
          <blockquote data-testid="run-cue">{run.cue}</blockquote>
        </div>
      )}
    </details>
  );
}
