// Keeps the server's connector readiness fresh off the request path (C4-9): every
// interval, the stale probes of every company's connectors run in the background (one company at
// a time, each probe under its timeout); a read of a company's connectors also starts a refresh of
// its stale ones without waiting for it. Requests read the cached outcomes; only a request that
// needs one never measured (just after start) waits for it, and never inside a transaction.
import { type ProbeBook, probeSpecs, refreshReadiness } from "@cadre/company";
import type { ConnectorRow, Store } from "@cadre/store";

export interface ReadinessMonitorOptions {
  store: Store;
  env: NodeJS.ProcessEnv;
  probes: ProbeBook;
  /** How often every company's stale probes are refreshed; 0 disables the timer (default 15 s). */
  intervalMs?: number;
  log: (line: string) => void;
}

export class ReadinessMonitor {
  #timer: NodeJS.Timeout | undefined;
  #sweep: Promise<void> | undefined;
  #stopped = false;

  constructor(private readonly options: ReadinessMonitorOptions) {}

  start(): void {
    const interval = this.options.intervalMs ?? 15_000;
    if (interval <= 0 || this.#timer) return;
    this.#timer = setInterval(() => void this.sweep(), interval);
    this.#timer.unref();
    void this.sweep();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Refreshes one company's stale probes (awaitable; runs outside any transaction). */
  async refreshCompany(companyId: string): Promise<void> {
    const connectors = await this.options.store.listConnectors(companyId);
    await refreshReadiness(connectors, this.options.env, this.options.probes);
  }

  /**
   * Before an answer that shows readiness (or a legacy hire that reads it): waits only for probes
   * never measured (just after start); stale ones are refreshed in the background.
   */
  async ensure(companyId: string, connectors?: readonly ConnectorRow[]): Promise<void> {
    const list = connectors ?? (await this.options.store.listConnectors(companyId));
    const unmeasured = list.filter((c) =>
      probeSpecs(c, this.options.env).some((spec) => this.options.probes.peek(spec) === undefined),
    );
    if (unmeasured.length > 0) await refreshReadiness(unmeasured, this.options.env, this.options.probes);
    // The stale ones (if any) refresh after this answer; a fresh outcome costs nothing here.
    refreshReadiness(list, this.options.env, this.options.probes).catch((error: unknown) =>
      this.options.log(`cadre server: readiness refresh of company ${companyId} failed: ${String(error)}`),
    );
  }

  /** Starts a refresh of the company's stale probes and returns at once. */
  kick(companyId: string): void {
    this.refreshCompany(companyId).catch((error: unknown) =>
      this.options.log(`cadre server: readiness refresh of company ${companyId} failed: ${String(error)}`),
    );
  }

  /** One pass over every company; a pass still running is not started twice. */
  sweep(): Promise<void> {
    this.#sweep ??= this.#pass().finally(() => (this.#sweep = undefined));
    return this.#sweep;
  }

  async #pass(): Promise<void> {
    try {
      for (const company of await this.options.store.listCompanies()) {
        if (this.#stopped) return;
        await this.refreshCompany(company.id);
      }
    } catch (error) {
      if (!this.#stopped) this.options.log(`cadre server: readiness refresh failed: ${String(error)}`);
    }
  }
}
