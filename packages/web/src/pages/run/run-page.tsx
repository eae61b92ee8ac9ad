// A run, live: what woke the agent (trigger, mode, the cue it was sent), then everything it did
// as it streams — text, each tool call with arguments and result, usage, errors — and how it ended.
// The list renders only the rows in view, so a run of 10,000 events scrolls like a short one.
import { useCallback, useMemo, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { useRun } from "../../hooks/use-run.js";
import type { RunItem } from "../../model/run-fold.js";
import { href } from "../../route.js";
import { useThrottled } from "../../ui/use-throttled.js";
import { VirtualList } from "../../ui/virtual-list.js";
import { CacheChart } from "../usage/cache-chart.js";
import { RunItemView } from "./run-item.js";
import { estimateRow } from "./row-estimate.js";
import { RunSummary } from "./run-summary.js";
import { WhyPanel } from "./why-panel.js";

export function RunPage({ api, companyId, runId }: { api: Api; companyId: string; runId: string }) {
  const live = useRun(api, companyId, runId);
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
  return (
    <main class="page run-page">
      <p class="crumbs">
        <a href={href({ page: "company", companyId, tab: "runs" })}>Runs</a> / <span>{runId}</span>
      </p>
      <h1>
        Run <code>{runId}</code>
      </h1>
      {live.error && (
        <p class="alert error" role="alert">
          {live.error}
        </p>
      )}
      <RunSummary run={live.run} fold={fold} stream={live.stream} />
      <WhyPanel api={api} companyId={companyId} runId={runId} />
      <section class="card wide events-card" aria-labelledby="events-title">
        <h2 id="events-title">What the agent did</h2>
        <VirtualList<RunItem>
          items={fold.items}
          version={version + expanded.size}
          itemKey={(item) => item.key}
          renderItem={(item) => (
            <RunItemView item={item} expanded={expanded.has(item.key)} onToggle={toggle} />
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
