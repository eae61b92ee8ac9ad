// The store as the server writes through it, telling the authenticator of every write that can
// end a credential: a key revoked (one, an agent's, a run's), an operator revoked, or an agent's status changed. Told
// when the call is made and, inside a transaction, again after the commit: a look-up that read
// the old row meanwhile cannot leave a revoked token cached.
import type { Store, StoreQueries } from "@cadre/store";

const REVOKING = new Set<PropertyKey>(["revokeApiTokens", "setAgentStatus", "revokeOperator"]);

function watch<T extends StoreQueries>(target: T, onRevoke: () => void, extra: Partial<Store> = {}): T {
  return new Proxy(target, {
    get(t, prop) {
      if (REVOKING.has(prop)) {
        const method = Reflect.get(t, prop, t) as (...args: unknown[]) => Promise<unknown>;
        return async (...args: unknown[]) => {
          onRevoke();
          try {
            return await method.apply(t, args);
          } finally {
            onRevoke();
          }
        };
      }
      if (prop in extra) return extra[prop as keyof Store];
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
}

export function revocationsOf(store: Store, onRevoke: () => void): Store {
  const transaction: Store["transaction"] = async (fn, options) => {
    let revoked = false;
    try {
      return await store.transaction(
        (tx) =>
          fn(
            watch(tx, () => {
              revoked = true;
              onRevoke();
            }),
          ),
        options,
      );
    } finally {
      if (revoked) onRevoke();
    }
  };
  return watch(store, onRevoke, { transaction });
}
