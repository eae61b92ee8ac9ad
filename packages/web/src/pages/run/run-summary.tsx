// The run's header facts: agent, trigger, mode, profile, the cue it was woken with, its state and
// totals so far, and how full the context window was at the end of the last turn.
import type { StreamStatus } from "../../api/event-stream.js";
import type { Run } from "../../api/types.js";
import { formatTime, formatTokens } from "../../model/format.js";
import { contextText } from "../../model/policy-text.js";
import type { RunFold } from "../../model/run-fold.js";
import { hitRate } from "../../model/usage-series.js";

export function RunSummary({
  run,
  fold,
  stream,
}: {
  run: Run | undefined;
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
  const state = fold.state !== "running" ? fold.state : (run?.status ?? "running");
  return (
    <section class="card wide" aria-labelledby="summary-title">
      <h2 id="summary-title" class="visually-hidden">
        Summary
      </h2>
      <dl class="facts">
        <div>
          <dt>State</dt>
          <dd>
            <span
              class={`badge ${state === "done" ? "ok" : state === "running" ? "info" : "warn"}`}
              data-testid="run-state"
            >
              {state}
            </span>
            {state === "running" && <span class="muted"> ({stream === "live" ? "live" : stream})</span>}
          </dd>
        </div>
        {run && (
          <>
            <div>
              <dt>Trigger</dt>
              <dd>{run.trigger.replace(/_/g, " ")}</dd>
            </div>
            <div>
              <dt>Mode</dt>
              <dd>{run.mode}</dd>
            </div>
            <div>
              <dt>Profile</dt>
              <dd>{run.profile}</dd>
            </div>
            <div>
              <dt>Started</dt>
              <dd>{formatTime(run.startedAt)}</dd>
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
      {run?.error && <p class="alert error">{run.error}</p>}
    </section>
  );
}
