// A Store that signals the feed bus after every commit that appended to a company's feed (run
// events, activity). Writes inside a transaction are signalled once it commits, never before: a
// subscriber woken by the signal always finds the rows.
import type { NewActivity, NewRunEvent, Store, StoreQueries } from "@cadre/store";
import type { FeedBus } from "./bus.js";

type OnFeedWrite = (companyIds: Iterable<string>) => void;

function intercept<T extends StoreQueries>(
  target: T,
  onFeedWrite: OnFeedWrite,
  extra: Partial<Record<keyof Store, unknown>> = {},
): T {
  return new Proxy(target, {
    get(t, prop) {
      if (prop === "appendRunEvents") {
        return async (events: NewRunEvent[]) => {
          const rows = await t.appendRunEvents(events);
          onFeedWrite(new Set(events.map((e) => e.companyId)));
          return rows;
        };
      }
      if (prop === "insertActivity") {
        return async (activity: NewActivity) => {
          const row = await t.insertActivity(activity);
          onFeedWrite([activity.companyId]);
          return row;
        };
      }
      if (prop === "insertActivities") {
        return async (activities: NewActivity[]) => {
          const rows = await t.insertActivities(activities);
          onFeedWrite(new Set(activities.map((a) => a.companyId)));
          return rows;
        };
      }
      if (typeof prop === "string" && prop in extra) return extra[prop as keyof Store];
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(t) : value;
    },
  });
}

export function notifyingStore(store: Store, bus: FeedBus): Store {
  const publish: OnFeedWrite = (ids) => {
    for (const id of ids) bus.publish(id);
  };
  const transaction: Store["transaction"] = async (fn, options) => {
    const touched = new Set<string>();
    // The caller's isolation goes through unchanged (a lease's appends ask for read committed).
    const result = await store.transaction(
      (tx) =>
        fn(
          intercept(tx, (ids) => {
            for (const id of ids) touched.add(id);
          }),
        ),
      options,
    );
    publish(touched);
    return result;
  };
  return intercept(store, publish, { transaction });
}
