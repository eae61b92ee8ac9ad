// Who is writing: the actor every audited write of the current async flow is recorded under. The
// server sets it per request (the operator by name, or the agent of the token), a wake per run (its
// agent), the CLI for its own commands; anything else writes as the system.
import { AsyncLocalStorage } from "node:async_hooks";
import type { AuditActor } from "./types.js";

export interface AuditContext {
  actor: AuditActor;
  /** The request that made the writes (the server's X-Request-Id), when there was one. */
  requestId: string | null;
}

const scope = new AsyncLocalStorage<AuditContext>();

const SYSTEM: AuditContext = { actor: { type: "system" }, requestId: null };

/** Runs `fn` with every audited write inside it (through awaits) recorded as made by `actor`. */
export function actingAs<T>(actor: AuditActor, fn: () => T, requestId: string | null = null): T {
  return scope.run({ actor, requestId }, fn);
}

/** The actor of the current flow; the system when nobody set one. */
export function currentAudit(): AuditContext {
  return scope.getStore() ?? SYSTEM;
}

/**
 * The store as `actor` writes through it: every call (and a transaction's whole body) runs as that
 * actor, whatever the caller's flow says — a run's writes are its agent's, even when an operator's
 * request started the run.
 */
export function actingStore<T extends object>(store: T, actor: AuditActor): T {
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) =>
        actingAs(
          actor,
          () => (value as (...a: unknown[]) => unknown).apply(target, args),
          currentAudit().requestId,
        );
    },
  });
}
