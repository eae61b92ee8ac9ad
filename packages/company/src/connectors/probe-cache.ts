// The readiness probes' cache (C4-9, MC-4). A probe asks the real question — did the
// endpoint answer, is the executable there, is the credential file there — and takes I/O, so it
// never runs where readiness is read (a hire's transaction, a prompt build, a request): readers
// `peek` the last outcome, and the outcome is refreshed before a wake, by the server in the
// background, and by the commands that show it. Each probe runs under a timeout; a fresh outcome is
// kept for a while (shorter after a failure), and concurrent refreshes of one probe share one run.
import { forbidInsideTransaction } from "@cadre/store";

export type ProbeKind = "endpoint" | "harness";

/** What a probe found: ok, or what failed, in words a reader can act on (never a secret). */
export type ProbeOutcome =
  | {
      ok: true;
      detail?: string;
      /** What the endpoint offers for each model it lists (MC-6), when it offers something. */
      fingerprints?: Record<string, string>;
    }
  | { ok: false; error: string };

/** One probe of one connector: what it checks and how. */
export interface ProbeSpec {
  /** Identity of what is probed (kind, URL, the key's fingerprint, PATH…): equal keys share an outcome. */
  key: string;
  kind: ProbeKind;
  /** What is checked, for a reader: the URL asked, or the harness's executable and credentials. */
  target: string;
  run(signal: AbortSignal): Promise<ProbeOutcome>;
}

/** A probe's last outcome. `checkedAt` is null for an outcome assumed rather than measured (evals). */
export interface ProbeRecord {
  kind: ProbeKind;
  target: string;
  ok: boolean;
  checkedAt: string | null;
  latencyMs: number | null;
  error?: string;
  detail?: string;
  /** What the endpoint offered for each model it listed (model id → fingerprint), when it offered any. */
  fingerprints?: Record<string, string>;
}

/** Where readiness reads probe outcomes from, and how they are refreshed. */
export interface ProbeBook {
  /** The last outcome, fresh or not; undefined when never checked. Never does I/O. */
  peek(spec: ProbeSpec): ProbeRecord | undefined;
  /** Runs the probes whose outcome is missing or stale (all of them with force), each under the timeout. */
  refresh(specs: readonly ProbeSpec[], options?: { force?: boolean }): Promise<void>;
  /** Stores an outcome measured elsewhere (a connector test's real request). */
  record(spec: ProbeSpec, outcome: ProbeOutcome, latencyMs: number): void;
}

export interface ProbeCacheOptions {
  /** How long an ok outcome counts as fresh (default 60 s). */
  okTtlMs?: number;
  /** How long a failure counts as fresh (default 10 s): a server that comes up is seen soon. */
  failedTtlMs?: number;
  /** Per probe (default 3 s). */
  timeoutMs?: number;
  /** At most this many outcomes are kept (default 1000), the oldest dropped first. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry {
  record: ProbeRecord;
  at: number;
}

export class ProbeCache implements ProbeBook {
  readonly timeoutMs: number;
  readonly #okTtl: number;
  readonly #failedTtl: number;
  readonly #max: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  readonly #running = new Map<string, Promise<void>>();

  constructor(options: ProbeCacheOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 3_000;
    this.#okTtl = options.okTtlMs ?? 60_000;
    this.#failedTtl = options.failedTtlMs ?? 10_000;
    this.#max = options.maxEntries ?? 1_000;
    this.#now = options.now ?? Date.now;
  }

  peek(spec: ProbeSpec): ProbeRecord | undefined {
    return this.#entries.get(spec.key)?.record;
  }

  /** True when the outcome is missing or older than its time to live. */
  stale(spec: ProbeSpec): boolean {
    const entry = this.#entries.get(spec.key);
    if (!entry) return true;
    return this.#now() - entry.at >= (entry.record.ok ? this.#okTtl : this.#failedTtl);
  }

  async refresh(specs: readonly ProbeSpec[], options: { force?: boolean } = {}): Promise<void> {
    // Probes take filesystem and network time: never while a transaction holds the store.
    forbidInsideTransaction("a connector readiness probe");
    const unique = new Map(specs.map((s) => [s.key, s]));
    await Promise.all(
      [...unique.values()].map((spec) => {
        const running = this.#running.get(spec.key);
        if (running) return running;
        if (!options.force && !this.stale(spec)) return undefined;
        const run = this.#run(spec).finally(() => this.#running.delete(spec.key));
        this.#running.set(spec.key, run);
        return run;
      }),
    );
  }

  record(spec: ProbeSpec, outcome: ProbeOutcome, latencyMs: number): void {
    this.#store(spec, outcome, latencyMs);
  }

  async #run(spec: ProbeSpec): Promise<void> {
    const started = performance.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<ProbeOutcome>((resolve) => {
      timer = setTimeout(() => {
        controller.abort();
        resolve({ ok: false, error: `no answer within ${formatSeconds(this.timeoutMs)}` });
      }, this.timeoutMs);
      timer.unref?.();
    });
    let outcome: ProbeOutcome;
    try {
      outcome = await Promise.race([
        spec.run(controller.signal).catch((error: unknown): ProbeOutcome => ({
          ok: false,
          error: error instanceof Error ? error.message : String(error),
        })),
        timedOut,
      ]);
    } finally {
      clearTimeout(timer);
    }
    this.#store(spec, outcome, Math.round(performance.now() - started));
  }

  #store(spec: ProbeSpec, outcome: ProbeOutcome, latencyMs: number): void {
    const record: ProbeRecord = {
      kind: spec.kind,
      target: spec.target,
      ok: outcome.ok,
      checkedAt: new Date(this.#now()).toISOString(),
      latencyMs,
      ...(outcome.ok ? (outcome.detail ? { detail: outcome.detail } : {}) : { error: outcome.error }),
      ...(outcome.ok && outcome.fingerprints && Object.keys(outcome.fingerprints).length > 0
        ? { fingerprints: outcome.fingerprints }
        : {}),
    };
    this.#entries.delete(spec.key);
    this.#entries.set(spec.key, { record, at: this.#now() });
    while (this.#entries.size > this.#max) this.#entries.delete(this.#entries.keys().next().value as string);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Every probe counts as passed, unmeasured (`checkedAt: null`): for evaluation scenarios, whose
 * connectors are ready or not as the scenario file declares, with no endpoint behind them.
 */
export const ASSUMED_PROBES: ProbeBook = {
  peek: (spec) => ({
    kind: spec.kind,
    target: spec.target,
    ok: true,
    checkedAt: null,
    latencyMs: null,
    detail: "not probed: assumed",
  }),
  refresh: async () => {},
  record: () => {},
};

/** The process's probe cache: what readiness reads unless a caller brings its own. */
export const sharedProbes = new ProbeCache();
