// Everything a route handler may use, built once per app by createApp.
import type { ProbeBook } from "@cadre/company";
import type { Store } from "@cadre/store";
import type { Authenticator } from "./auth/principal.js";
import type { FeedBus } from "./feed/bus.js";
import type { FeedReader } from "./feed/follow.js";
import type { PrincipalStreams } from "./feed/principal-streams.js";
import type { ReadinessMonitor } from "./readiness-monitor.js";
import type { DueWorkLoop } from "./due-work.js";
import type { ProfileServerOptions } from "./profiles/registry.js";
import type { WakeRunner } from "./wakes.js";

export interface ServerLimits {
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: number;
  /** SSE: how often a subscriber re-reads the store without a bus signal (other processes' writes). */
  ssePollMs: number;
  /** SSE: comment line sent this often so that proxies keep the connection open. */
  sseHeartbeatMs: number;
}

export interface ServerContext {
  /** The store, wrapped so that every feed write signals the bus. */
  store: Store;
  bus: FeedBus;
  feed: FeedReader;
  auth: Authenticator;
  wakes: WakeRunner;
  /** The company's due work: the server's own loop, and a pass on request (`cadre run --server`). */
  dueWork: DueWorkLoop;
  /** Agents' open event streams, ended at once when their key is revoked or their agent removed. */
  streams: PrincipalStreams;
  limits: ServerLimits;
  /** Environment used for connector readiness (the server's own, by default). */
  env: NodeJS.ProcessEnv;
  /** The connector probes' last outcomes, which readiness reads (never probing on a request's path). */
  probes: ProbeBook;
  /** Refreshes the probes in the background; `refreshCompany` when an answer needs one never measured. */
  readiness: ReadinessMonitor;
  /** The prompt profiles' server options (profiles/), read by the routes they add. */
  profiles: ProfileServerOptions;
  /** Aborted when the server shuts down: ends every open event stream. */
  shutdown: AbortSignal;
}
