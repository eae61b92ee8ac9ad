// A file handed in, over HTTP: the copy kept, its hash in a header, sent so a browser
// never renders it as a page (plain text or a download, sandboxed, not sniffed); the task's detail
// lists it; a file of another task is not reachable through this one.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { send, testWorld, type World } from "./testing/harness.js";

let w: World;
beforeEach(async () => {
  w = await testWorld();
});
afterEach(async () => {
  await w.app.close();
});

describe("task files over HTTP", () => {
  it("serves the kept copy as plain text, with its hash, and lists it in the task's detail", async () => {
    const detail = await send(w.app.cadre, "GET", "/api/tasks/task_a");
    const files = (detail.body as { files: { id: string; name: string; size: number; sha256: string }[] })
      .files;
    expect(files.map((f) => [f.id, f.name, f.size])).toEqual([["tfl_a", "docs/plan.md", 7]]);
    const r = await send(w.app.cadre, "GET", "/api/tasks/task_a/files/tfl_a");
    expect(r.status).toBe(200);
    expect(r.body).toBe("# Plan\n");
    expect(r.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(r.headers.get("x-content-sha256")).toBe(files[0]!.sha256);
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("content-security-policy")).toContain("sandbox");
  });

  it("sends a binary file as a download", async () => {
    const task = await w.app.store.getTask("task_a");
    await w.app.store.attachTaskFile({
      id: "tfl_bin",
      taskId: "task_a",
      companyId: task!.companyId,
      name: "out/chart.png",
      mediaType: "application/octet-stream",
      addedBy: task!.assigneeAgentId!,
      runId: null,
      content: new Uint8Array([137, 80, 78, 71]),
    });
    const r = await send(w.app.cadre, "GET", "/api/tasks/task_a/files/tfl_bin");
    expect(r.headers.get("content-type")).toBe("application/octet-stream");
    expect(r.headers.get("content-disposition")).toBe('attachment; filename="chart.png"');
  });

  it("answers 404 for a file that is not the task's", async () => {
    const r = await send(w.app.cadre, "GET", "/api/tasks/task_a/files/tfl_nope");
    expect(r.status).toBe(404);
  });
});
