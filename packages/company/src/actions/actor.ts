// Who performs a company action, and through which path (C4-6: every record says which path made it).
import type { Via } from "@cadre/model";
import type { ProbeBook } from "../connectors/probe-cache.js";

export interface Actor {
  companyId: string;
  /** The acting agent; null for the operator. */
  agentId: string | null;
  /** When an operator acts (agentId null): who, by name; absent for the bootstrap owner ("operator"). */
  operator?: string;
  via: Via;
  runId: string | null;
  /** The acting agent's workspace (absolute): the only place files it attaches are read from. */
  workspace?: string;
  /** The data directory: an agent hired by this actor gets its workspace made under it (or the company's root). */
  dataDir?: string;
  /** Connector readiness is computed against this environment (a wake's); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where readiness reads the probes' last outcomes (never probing itself); default the process's cache. */
  probes?: ProbeBook;
}

/** Expected refusals are values, not exceptions: the model reads them as an error tool result. */
export type ActionResult<T> =
  { ok: true; value: T } | { ok: false; message: string; fields: Record<string, string> };
