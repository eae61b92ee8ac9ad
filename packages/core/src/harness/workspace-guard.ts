// The one rule every harness's file tools answer to: a path the model names must stay inside the
// agent's workspace. Relative paths are taken from the workspace, `~` is the home directory (as Pi
// and Claude Code read it), and a symbolic link is followed to where it really points, so neither
// `../` nor a link can carry a write out.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

/** The path as a file tool would open it: `@` and `~` read the way Pi and Claude Code read them. */
function asOpened(workspace: string, path: string): string {
  const bare = path.startsWith("@") ? path.slice(1) : path;
  const home = bare === "~" ? homedir() : bare.startsWith("~/") ? homedir() + bare.slice(1) : bare;
  return isAbsolute(home) ? resolve(home) : resolve(workspace, home);
}

/** Where a path really leads: its longest existing ancestor with links resolved, the rest appended. */
function real(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.push(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      existing = parent;
    }
  }
}

function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * Why a file tool may not touch `path`, in words the model can act on; undefined when the path is
 * inside `workspace` (the workspace itself included).
 */
export function outsideWorkspace(workspace: string, path: string): string | undefined {
  const root = real(resolve(workspace));
  const target = real(asOpened(root, path));
  if (within(root, target)) return undefined;
  return `refused: ${JSON.stringify(path)} is outside your workspace (${root}); your file tools may read and write only inside it — use a path relative to it`;
}
