// Wakes started over HTTP run in the background: the route answers as soon as the run row exists
// (wakeAgent's onStart), and the run's events reach clients through the store and the feed. Every
// refusal that wakeAgent makes before the run starts (unknown agent, governance, a legacy wake
// without an API) still reaches the caller as an error, with nothing written.
import { type WakeOptions, type WakeResult, wakeAgent } from "@cadre/company";
import type { CeoMode } from "@cadre/company";
import type { RunRow, Store } from "@cadre/store";

export interface StartedWake {
  run: RunRow;
  cue: string;
  cueTokens: number;
  mode: CeoMode;
}

export interface WakeRunnerOptions {
  store: Store;
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  /** The API the legacy profile's CEO calls: this server's own URL, once it listens. */
  apiUrl: () => string | undefined;
  /** Told about runs that failed after they started (the run row records it too). */
  onBackgroundError?: (error: unknown) => void;
}

export type WakeRequest = Pick<WakeOptions, "agentId" | "trigger" | "profile" | "seed">;

export class WakeRunner {
  private readonly running = new Map<Promise<void>, AbortController>();

  constructor(private readonly options: WakeRunnerOptions) {}

  /** Resolves once the run has started; rejects with wakeAgent's refusal when it cannot start. */
  start(request: WakeRequest): Promise<StartedWake> {
    const controller = new AbortController();
    const apiUrl = this.options.apiUrl();
    return new Promise<StartedWake>((resolve, reject) => {
      let started = false;
      const run: Promise<WakeResult> = wakeAgent({
        ...request,
        store: this.options.store,
        signal: controller.signal,
        ...(this.options.dataDir ? { dataDir: this.options.dataDir } : {}),
        ...(this.options.env ? { env: this.options.env } : {}),
        ...(apiUrl ? { apiUrl } : {}),
        onStart: (info) => {
          started = true;
          resolve(info);
        },
      });
      const settled = run.then(
        () => undefined,
        (error: unknown) => {
          if (started) this.options.onBackgroundError?.(error);
          else reject(error);
        },
      );
      this.running.set(settled, controller);
      void settled.finally(() => this.running.delete(settled));
    });
  }

  get active(): number {
    return this.running.size;
  }

  /** Cancels every running wake (each ends with one `cancelled` terminal event) and waits for them. */
  async shutdown(): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    await Promise.all([...this.running.keys()]);
  }

  /** Waits for the running wakes to end on their own (tests, the benchmark). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.keys()]);
  }
}
