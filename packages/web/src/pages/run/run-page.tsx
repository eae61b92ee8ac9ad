// A run, live, as an operator reads it: who ran, why it woke, how it ended and what it spent (the
// header), then what the agent said and did as it streams — each tool call by kind — and, folded
// away, the run's details and the harness's own rows (model calls, usage, context policy).
// The list renders only the rows in view, so a run of 10,000 events scrolls like a short one.
import { useCallback, useMemo, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { useList } from "../../hooks/use-list.js";
import { useResource } from "../../hooks/use-resource.js";
import { useRun } from "../../hooks/use-run.js";
import type { RunItem } from "../../model/run-fold.js";
import { operatorItems, runOutcome, stopOf } from "../../model/run-read.js";
import { href } from "../../route.js";
import { useThrottled } from "../../ui/use-throttled.js";
import { VirtualList } from "../../ui/virtual-list.js";
import { CacheChart } from "../usage/cache-chart.js";
import { StopRun } from "../actions/stop-run.js";
import { RunHeader } from "./run-header.js";
import { RunItemView } from "./run-item.js";
import { estimateRow } from "./row-estimate.js";
import { RunSummary } from "./run-summary.js";
import { WhyPanel } from "./why-panel.js";
import { useMe } from "../../session/permissions.js";

export function RunPage({ api, companyId, runId }: { api: Api; companyId: string; runId: string }) {
  const live = useRun(api, companyId, runId);
  const may = useMe().may.act;
  const why = useResource(api, "GET /api/runs/{id}/why", { params: { id: runId } });
  const tasks = useList(api, "GET /api/companies/{id}/tasks", { params: { id: companyId } });
  const [internal, setInternal] = useState(false);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((key: string) => {
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  }, []);
  const { fold, version } = live;
  // The chart redraws when the number of model calls changed, at most once a second.
  const callCount = useThrottled(fold.calls.length, 1000);
  const calls = useMemo(() => fold.calls.slice(0, callCount), [fold, callCount]);
  const taskTitles = useMemo(() => new Map((tasks.data ?? []).map((t) => [t.id, t.title])), [tasks.data]);
  const stop = stopOf(live.run, fold.items);
  // The fold mutates its items in place: re-filtered whenever its version moved.
  const mine = useMemo(() => operatorItems(fold.items, stop, false), [fold, version, stop]);
  const items = internal ? fold.items : mine;
  const hidden = fold.items.length - mine.length;
  const tokens = fold.calls.reduce((s, u) => s + u.input + u.output + u.cacheRead + u.cacheWrite, 0);
  const state = fold.state !== "running" ? fold.state : (live.run?.status ?? "running");
  return (
    <main class="page run-page">
      <p class="crumbs">
        <a href="#/">Companies</a> /{" "}
        <a href={href({ page: "company", companyId, tab: "overview" })} data-testid="crumb-company">
          {live.run?.company.name ?? companyId}
        </a>{" "}
        / <a href={href({ page: "company", companyId, tab: "runs" })}>Runs</a> / <span>{runId}</span>
      </p>
      {live.error && (
        <p class="alert error" role="alert">
          {live.error}
        </p>
      )}
      {/* Side by side at desktop width, so the list of events still starts within the first screen. */}
      <div class="run-head">
        <div>
          <RunHeader
            runId={runId}
            companyId={companyId}
            run={live.run}
            reasons={why.data?.runs.find((r) => r.runId === runId)?.reasons}
            outcome={runOutcome(live.run, fold.items, state)}
            tokens={tokens}
            taskTitles={taskTitles}
          />
          {live.run?.status === "running" && may && <StopRun api={api} runId={runId} />}
        </div>
        <WhyPanel why={why} companyId={companyId} runId={runId} />
      </div>
      <RunSummary run={live.run} fold={fold} stream={live.stream} />
      <section class="card wide events-card" aria-labelledby="events-title">
        <div class="events-head">
          <h2 id="events-title">What the agent did</h2>
          <label class="small">
            <input
              type="checkbox"
              checked={internal}
              onChange={(e) => setInternal(e.currentTarget.checked)}
              data-testid="show-internal"
            />{" "}
            Show the harness's own rows ({hidden}): model calls, usage, context handling
          </label>
        </div>
        {/* A list of its own per toggle: row heights are kept by position. */}
        <VirtualList<RunItem>
          key={internal ? "all" : "operator"}
          items={items}
          version={version + expanded.size}
          itemKey={(item) => item.key}
          renderItem={(item) => (
            <RunItemView
              item={item}
              companyId={companyId}
              taskTitles={taskTitles}
              stop={stop}
              expanded={expanded.has(item.key)}
              onToggle={toggle}
            />
          )}
          estimate={estimateRow}
          label="Run events"
          follow={true}
          class="events"
          testId="run-events"
        />
      </section>
      {calls.length > 0 && (
        <section class="card wide" aria-labelledby="cache-title">
          <h2 id="cache-title">Prompt cache</h2>
          <CacheChart calls={calls} />
        </section>
      )}
    </main>
  );
}
