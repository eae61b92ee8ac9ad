// A run as the run view shows it: its row (cue, trigger, mode, status) and its events folded as
// they stream. The stream is narrowed to this run's agent events and replays them from the start,
// then follows live until the terminal event; a reconnect resumes after the last event folded.
import { useEffect, useMemo, useState } from "preact/hooks";
import type { Api } from "../api/client.js";
import { followEvents, type StreamStatus } from "../api/event-stream.js";
import type { AgentMessage, FeedMessage, RunDetail } from "../api/types.js";
import { RunFold } from "../model/run-fold.js";

const RENDER_EVERY_MS = 100;

export interface LiveRun {
  /** The run with who ran it, its company and its cost (re-read when it ends). */
  run: RunDetail | undefined;
  fold: RunFold;
  /** The fold's version when last rendered: changes whenever the fold did. */
  version: number;
  stream: StreamStatus;
  error: string | undefined;
}

export function useRun(api: Api, companyId: string, runId: string): LiveRun {
  const fold = useMemo(() => new RunFold(), [runId]);
  const [version, setVersion] = useState(0);
  const [run, setRun] = useState<RunDetail | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [stream, setStream] = useState<StreamStatus>("connecting");

  useEffect(() => {
    let mounted = true;
    const stop = new AbortController();
    const readRun = () =>
      api.call("GET /api/runs/{id}", { params: { id: runId } }).then(
        (r) => mounted && setRun(r),
        (e: unknown) => mounted && setError(e instanceof Error ? e.message : String(e)),
      );
    void readRun();
    // Events are folded as they arrive; the view renders at most every RENDER_EVERY_MS, in an
    // animation frame: a replay of thousands of events costs a few renders, not one per chunk.
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let rendered = 0;
    const render = () => {
      frame = 0;
      rendered = performance.now();
      if (mounted) setVersion(fold.version);
    };
    const schedule = () => {
      if (frame !== 0 || timer !== undefined) return;
      timer = setTimeout(
        () => {
          timer = undefined;
          frame = requestAnimationFrame(render);
        },
        Math.max(0, rendered + RENDER_EVERY_MS - performance.now()),
      );
    };
    const onMessages = (messages: FeedMessage[]) => {
      for (const m of messages)
        if (m.kind === "agent_event" && m.runId === runId)
          fold.apply((m as AgentMessage).seq, (m as AgentMessage).event);
      schedule();
      if (fold.state !== "running") {
        // The terminal event is the run's last: nothing more will come, and the row is final.
        stop.abort();
        void readRun();
      }
    };
    void followEvents({
      path: `/api/companies/${companyId}/events?kind=agent_event&run=${encodeURIComponent(runId)}`,
      token: api.token,
      onMessages,
      onStatus: setStream,
      onUnauthorized: () => void readRun(),
      signal: stop.signal,
    });
    return () => {
      mounted = false;
      stop.abort();
      if (frame !== 0) cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [api, companyId, runId, fold]);

  return { run, fold, version, stream, error };
}
