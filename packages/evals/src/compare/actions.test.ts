// A sample's tool calls in path-independent words: the committed legacy baseline (a shell calling
// the HTTP routes) and a semantic run (the company tools) perform the same actions, so one can be
// compared with the other; a harness's MCP prefix names the same tool.
import { describe, expect, it } from "vitest";
import { TEAM_BUILDING_BASELINE_DIR } from "../data/paths.js";
import { runProfile } from "../evaluate.js";
import { readRecording } from "../recording/read.js";
import { actionOf, actionSequence, refusalsOf } from "./actions.js";

describe("actions of a sample", () => {
  it("the legacy baseline's shell calls and a semantic run's tool calls are the same actions", async () => {
    const legacy = await readRecording(TEAM_BUILDING_BASELINE_DIR);
    const id = "several-connectors-one-not-ready";
    const semantic = await runProfile({ profile: "semantic", samples: 1, seed: 1, only: [id] });
    const shell = legacy.traces.get(id)![0]!;
    expect(new Set(shell.toolCalls.map((c) => c.name))).toEqual(new Set(["bash"]));
    expect(actionSequence(shell)).toEqual(["hire_agent", "file_approval"]);
    expect(actionSequence(semantic.traces.get(id)![0]!)).toEqual(["hire_agent", "file_approval"]);
    // Its hires on the connector that is not ready were refused, then retried.
    expect(refusalsOf(shell).refused).toBeGreaterThan(0);
    expect(refusalsOf(shell).retries).toBe(refusalsOf(shell).refused);
  });

  it("a harness's MCP name is the tool's; a shell call that writes nothing is no action", () => {
    expect(actionOf({ name: "mcp__cadre__file_approval", args: {} })).toBe("file_approval");
    expect(actionOf({ name: "create_task", args: {} })).toBe("create_task");
    expect(actionOf({ name: "bash", args: { command: "ls -la" } })).toBeNull();
    expect(
      actionOf({ name: "bash", args: { command: "curl -s http://127.0.0.1:*/api/companies/cmp_*/agents" } }),
    ).toBeNull();
  });

  it("refused calls do not count as performed, and repeats in a row are one step", () => {
    const call = (name: string, ok = true) => ({ name, args: {}, ok, result: "" });
    const trace = {
      toolCalls: [call("hire_agent", false), call("hire_agent"), call("hire_agent"), call("file_approval")],
    };
    expect(actionSequence(trace)).toEqual(["hire_agent", "file_approval"]);
    expect(actionSequence({ toolCalls: [call("file_approval", false)] })).toEqual([]);
    expect(refusalsOf(trace)).toEqual({ refused: 1, retries: 1 });
  });
});
