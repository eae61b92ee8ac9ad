// The gate of the activity table: only domain events are written (model's union, checked here, the
// one place every writer passes), so every reader — the feed's clients, the dashboard, the
// evaluation — can switch on the type and trust the data.
import { domainEventProblem } from "@cadre/model";
import { StoreError } from "./errors.js";
import type { NewActivity } from "./types.js";

/** Throws, before anything is written, when one of the activities is not a domain event. */
export function refuseUnlessDomainEvents(activities: readonly NewActivity[]): void {
  activities.forEach((activity, i) => {
    // Typed callers cannot reach this; untyped ones (JSON, casts) can.
    const problem = domainEventProblem(activity as { type: unknown; data: unknown });
    if (problem === undefined) return;
    const which = activities.length > 1 ? `activity ${i + 1} of ${activities.length}` : "the activity";
    throw new StoreError(
      `${which} (type "${String(activity.type)}", company "${activity.companyId}") was refused and nothing was written: ${problem}`,
    );
  });
}
