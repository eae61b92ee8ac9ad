// Reading the files an agent attaches to a task from its workspace. Decided in code,
// before any transaction (no I/O inside one): a path is relative to the workspace and stays in it
// once every symlink is resolved; it names a regular file no larger than the cap; at most
// MAX_FILES per hand-in. Anything else is a refusal naming the path and why, and nothing is read
// further. The bytes read here are what the store keeps: a later edit of the file changes nothing.
import { constants } from "node:fs";
import { type FileHandle, open, realpath } from "node:fs/promises";
import { extname, isAbsolute, posix, relative, resolve, sep } from "node:path";

/** One file at most this large (1 MiB). */
export const MAX_FILE_BYTES = 1024 * 1024;
/** At most this many files per update. */
export const MAX_FILES = 10;

export interface WorkspaceFile {
  /** The path as given, normalised (forward slashes, no "./" or doubled slashes). */
  name: string;
  mediaType: string;
  content: Uint8Array;
}

export type FilesRead = { ok: true; files: WorkspaceFile[] } | { ok: false; why: string };

/** Text kinds shown as text (markdown rendered, sanitised); everything else is offered as a download. */
const TEXT_TYPES: Readonly<Record<string, string>> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".txt": "text/plain",
  ".csv": "text/csv",
  ".json": "application/json",
  ".log": "text/plain",
};

export function mediaTypeOf(name: string): string {
  return TEXT_TYPES[extname(name).toLowerCase()] ?? "application/octet-stream";
}

const code = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null ? (error as { code?: string }).code : undefined;

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

async function readOne(root: string, given: string): Promise<WorkspaceFile | string> {
  const name = given.replaceAll("\\", "/");
  if (name.trim() === "") return "is empty; give a path relative to your workspace";
  if (isAbsolute(name) || /^[a-zA-Z]:/.test(name))
    return "is absolute; give a path relative to your workspace";
  if (name.split("/").includes("..")) return 'leaves your workspace (".."); give a path inside it';
  const clean = posix.normalize(name);
  let real: string;
  try {
    real = await realpath(resolve(root, clean));
  } catch (error) {
    return code(error) === "ENOENT"
      ? "does not exist in your workspace"
      : `cannot be read (${code(error) ?? "error"})`;
  }
  if (!inside(root, real)) return "resolves (through a link) to a place outside your workspace";
  // O_NOFOLLOW: the resolved path is opened as it is, never through a link swapped in since.
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    return `cannot be read (${code(error) ?? "error"})`;
  }
  try {
    const stat = await handle.stat();
    if (stat.isDirectory()) return "is a directory; attach the files in it one by one";
    if (!stat.isFile()) return "is not a regular file";
    if (stat.size > MAX_FILE_BYTES)
      return `is ${stat.size} bytes; a file attached is at most ${MAX_FILE_BYTES} bytes (1 MiB)`;
    // Read at most one byte past the cap: a file that grew since stat is refused, not cut.
    const buffer = Buffer.alloc(MAX_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_FILE_BYTES) return `is over ${MAX_FILE_BYTES} bytes; a file attached is at most 1 MiB`;
    }
    return {
      name: clean,
      mediaType: mediaTypeOf(clean),
      content: new Uint8Array(buffer.subarray(0, length)),
    };
  } finally {
    await handle.close();
  }
}

/** Reads `paths` from the workspace `root`; the first path refused refuses the whole hand-in. */
export async function readWorkspaceFiles(root: string, paths: readonly string[]): Promise<FilesRead> {
  if (paths.length > MAX_FILES)
    return { ok: false, why: `lists ${paths.length} files; at most ${MAX_FILES} are attached at once` };
  // The same file named twice ("a.md", "./a.md") is attached once.
  const unique = [...new Set(paths.map((p) => posix.normalize(p.replaceAll("\\", "/"))))];
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch {
    return {
      ok: false,
      why: "cannot be read: your workspace does not exist yet (write the files there first)",
    };
  }
  const files: WorkspaceFile[] = [];
  for (const path of unique) {
    const read = await readOne(realRoot, path);
    if (typeof read === "string") return { ok: false, why: `"${path}" ${read}` };
    files.push(read);
  }
  return { ok: true, files };
}
