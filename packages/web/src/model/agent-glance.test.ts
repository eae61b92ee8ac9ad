import { describe, expect, it } from "vitest";
import type { Agent, CompanyUsageReport, Run, Task } from "../api/types.js";
import { agentGlances } from "./agent-glance.js";
import { formatCost } from "./format.js";

const agent = (id: string, status: Agent["status"] = "active") => ({ id, status }) as Agent;
const task = (over: Partial<Task>) => ({ checkedOutBy: null, ...over }) as Task;
const usage = (rows: Array<[string, number, number | null]>) =>
  ({
    agents: rows.map(([agentId, total, cost]) => ({ agentId, usage: { total, cost } })),
  }) as unknown as CompanyUsageReport;

describe("an org chart card's glance", () => {
  it("says who runs, what each works on and what each spent", () => {
    const glances = agentGlances(
      [agent("ceo"), agent("cto"), agent("cmo"), agent("old", "terminated")],
      [{ agentId: "cto", status: "running" } as Run, { agentId: "ceo", status: "done" } as Run],
      [
        task({ assigneeAgentId: "cto", status: "todo", title: "Hire engineers" }),
        task({
          assigneeAgentId: "cto",
          status: "in_progress",
          title: "Build the robot arm",
          checkedOutBy: "run_9",
        }),
        task({ assigneeAgentId: "cmo", status: "todo", title: "Brand" }),
      ],
      usage([
        ["ceo", 1200, 0.5],
        ["cto", 300, null],
      ]),
    );
    expect(glances.get("cto")).toEqual({
      status: "running",
      task: "on: Build the robot arm",
      spend: "unknown · 300 tokens",
    });
    expect(glances.get("ceo")).toEqual({
      status: "idle",
      task: "no task",
      spend: `${formatCost(0.5)} · ${new Intl.NumberFormat().format(1200)} tokens`,
    });
    expect(glances.get("cmo")).toMatchObject({ task: "next: Brand", spend: "nothing spent" });
    expect(glances.get("old")?.status).toBe("terminated");
  });
});
