import { describe, expect, it } from "vitest";
import { historyLine } from "./task-history.js";

const names: Record<string, string> = { ag_1: "Ada", ag_2: "Grace", ceo: "CEO" };
const name = (id: string | null) => (id === null || id === "operator" ? "the operator" : (names[id] ?? id));

describe("a task's history in words", () => {
  it("says what changed and who did it, and names the woken agent for a wake", () => {
    expect(historyLine({ type: "task.created", agentId: null, data: { by: "operator" } }, name)).toBe(
      "created by the operator",
    );
    expect(
      historyLine(
        { type: "task.assigned", agentId: null, data: { by: "ceo", from: "ag_1", to: "ag_2" } },
        name,
      ),
    ).toBe("assigned to Grace by CEO");
    expect(
      historyLine(
        { type: "task.updated", agentId: "ag_2", data: { by: "ag_2", from: "todo", status: "in_progress" } },
        name,
      ),
    ).toBe("to do → in progress by Grace");
    expect(
      historyLine(
        {
          type: "task.updated",
          agentId: "ag_2",
          data: { by: "ag_2", from: "done", status: "done", deliverable: true },
        },
        name,
      ),
    ).toBe("updated (deliverable) by Grace");
    // The row's agent of a wake is the one woken, not who caused it.
    expect(historyLine({ type: "wake.requested", agentId: "ag_1", data: { agentId: "ag_1" } }, name)).toBe(
      "woke Ada",
    );
    expect(historyLine({ type: "task.checked_out", agentId: "ag_1", data: {} }, name)).toBe(
      "taken up by Ada's run",
    );
    expect(historyLine({ type: "task.something_new", agentId: null, data: { by: "operator" } }, name)).toBe(
      "something new by the operator",
    );
  });
});
