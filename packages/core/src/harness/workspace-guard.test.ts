// The workspace guard every harness's file tools answer to: inside is allowed, and every way out —
// `..`, an absolute path, `~`, a symbolic link — is refused with a reason the model can act on.
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceRefusal } from "./claude-code/workspace-hook.js";
import { outsideWorkspace } from "./workspace-guard.js";

let dir: string;
let workspace: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-workspace-guard-"));
  workspace = join(dir, "agents", "agt_1", "workspace");
  await mkdir(join(workspace, "notes"), { recursive: true });
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe("outsideWorkspace", () => {
  it("allows the workspace itself and any path inside it, existing or not", () => {
    for (const path of [
      ".",
      "report.md",
      "notes/a.md",
      "new/dir/file.md",
      join(workspace, "x.md"),
      "@report.md",
    ])
      expect(outsideWorkspace(workspace, path), path).toBeUndefined();
  });

  it("refuses every path that leaves it, naming the path and the workspace", () => {
    for (const path of [
      "../outside.md",
      "notes/../../x.md",
      join(dir, "outside.md"),
      "/etc/passwd",
      "~/x.md",
    ]) {
      const why = outsideWorkspace(workspace, path);
      expect(why, path).toContain(JSON.stringify(path));
      expect(why).toMatch(/outside your workspace/);
    }
    // A home directory that is not the workspace is outside it.
    expect(homedir().startsWith(workspace)).toBe(false);
  });

  it("follows a symbolic link to where it really points", async () => {
    await symlink(dir, join(workspace, "escape"));
    expect(outsideWorkspace(workspace, "escape/outside.md")).toMatch(/outside your workspace/);
    await symlink(join(workspace, "notes"), join(workspace, "inner"));
    expect(outsideWorkspace(workspace, "inner/a.md")).toBeUndefined();
  });
});

describe("Claude Code's pre-tool-use check", () => {
  it("checks the path field of each file tool; other tools pass", () => {
    expect(workspaceRefusal(workspace, "Write", { file_path: join(dir, "x.md"), content: "" })).toMatch(
      /^Write refused: .* is outside your workspace/,
    );
    expect(workspaceRefusal(workspace, "Edit", { file_path: join(workspace, "a.md") })).toBeUndefined();
    expect(workspaceRefusal(workspace, "Grep", { pattern: "x", path: "/" })).toMatch(/^Grep refused/);
    expect(workspaceRefusal(workspace, "Glob", { pattern: "*.md" })).toBeUndefined();
    expect(
      workspaceRefusal(workspace, "mcp__cadre__update_task", { files: ["/etc/passwd"] }),
    ).toBeUndefined();
  });
});
