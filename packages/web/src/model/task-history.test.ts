import type { DomainEvent, DomainEventData } from "@cadre/model";
import { describe, expect, it } from "vitest";
import { SAMPLE_DOMAIN_EVENTS } from "../../../model/src/testing/domain-events.js";
import { historyLine, type HistoryRow } from "./task-history.js";

const names: Record<string, string> = { ag_1: "Ada", ag_2: "Grace", ceo: "CEO" };
const name = (id: string | null) => (id === null || id === "operator" ? "the operator" : (names[id] ?? id));
/** A row of `type`: its sample data, with the fields the case is about. */
const row = <T extends DomainEvent["type"]>(
  type: T,
  data: Partial<DomainEventData<T>>,
  agentId: string | null = null,
): HistoryRow => ({
  agentId,
  ...({ type, data: { ...SAMPLE_DOMAIN_EVENTS[type], ...data } } as DomainEvent),
});

describe("a task's history in words", () => {
  it("says what changed and who did it, and names the woken agent for a wake", () => {
    expect(historyLine(row("task.created", { by: "operator" }), name)).toBe("created by the operator");
    expect(historyLine(row("task.assigned", { by: "ceo", from: "ag_1", to: "ag_2" }), name)).toBe(
      "assigned to Grace by CEO",
    );
    expect(
      historyLine(row("task.updated", { by: "ag_2", from: "todo", status: "in_progress" }, "ag_2"), name),
    ).toBe("to do → in progress by Grace");
    expect(
      historyLine(
        row("task.updated", { by: "ag_2", from: "done", status: "done", deliverable: true }, "ag_2"),
        name,
      ),
    ).toBe("updated (deliverable) by Grace");
    // The row's agent of a wake is the one woken, not who caused it.
    expect(historyLine(row("wake.requested", { agentId: "ag_1", causedBy: "ceo" }, "ag_1"), name)).toBe(
      "woke Ada",
    );
    expect(historyLine(row("task.checked_out", {}, "ag_1"), name)).toBe("taken up by Ada's run");
    expect(historyLine(row("task.review_escalated", { by: "operator" }), name)).toBe(
      "review escalated by the operator",
    );
    expect(historyLine(row("wake.returned", {}), name)).toBe("wake returned");
  });
});
