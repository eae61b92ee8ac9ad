// The file writes a run asked its harness for, read from its events: which tool, which paths, and
// whether the harness refused it (an error result, or a call it refused outright) — and whether
// the answer is in the run at all. Each harness names its write tools and their paths its own way.
import type { AgentEvent } from "@cadre/core";

export interface FileWrite {
  runId: string;
  agentId: string;
  tool: string;
  paths: string[];
  /** The run shows an answer to the call (a tool_result, or the harness's refusal). */
  answered: boolean;
  /** The answer was an error or a refusal: nothing was written. */
  refused: boolean;
}

/** Every tool that reads or writes files, by the name the model sees (Pi, Claude Code, Codex). */
export const FILE_TOOL_NAMES: ReadonlySet<string> = new Set([
  "read",
  "write",
  "edit",
  "ls",
  "grep",
  "find",
  "bash",
  "Read",
  "Write",
  "Edit",
  "MultiEdit",
  "NotebookEdit",
  "Glob",
  "Grep",
  "Bash",
  "apply_patch",
  "shell",
  "file_change",
]);

const PATCH_PATH = /^\*\*\* (?:Add|Update|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm;

const field = (input: unknown, key: string): unknown =>
  typeof input === "object" && input !== null ? (input as Record<string, unknown>)[key] : undefined;

/** The paths a write tool's input names; undefined for a tool that does not write files by path. */
export function writtenPaths(tool: string, input: unknown): string[] | undefined {
  switch (tool) {
    case "write": // Pi
    case "edit":
      return typeof field(input, "path") === "string" ? [field(input, "path") as string] : [];
    case "Write": // Claude Code
    case "Edit":
    case "MultiEdit":
      return typeof field(input, "file_path") === "string" ? [field(input, "file_path") as string] : [];
    case "NotebookEdit":
      return typeof field(input, "notebook_path") === "string"
        ? [field(input, "notebook_path") as string]
        : [];
    case "file_change": {
      // Codex's exec stream: the changes it made.
      const changes = field(input, "changes");
      return Array.isArray(changes)
        ? changes.flatMap((c) => (typeof field(c, "path") === "string" ? [field(c, "path") as string] : []))
        : [];
    }
    case "apply_patch": {
      // Codex's freeform patch text (shown when its sandbox refused it).
      const text = typeof input === "string" ? input : field(input, "input");
      if (typeof text !== "string") return [];
      return [...text.matchAll(PATCH_PATH)].map((m) => (m[1] ?? m[2] ?? "").trim());
    }
    default:
      return undefined;
  }
}

/** The file writes of one run, in order. */
export function fileWritesOf(
  run: { id: string; agentId: string },
  events: readonly AgentEvent[],
): FileWrite[] {
  const out: FileWrite[] = [];
  const byCall = new Map<string, FileWrite>();
  for (const e of events) {
    if (e.type === "tool_use") {
      const paths = writtenPaths(e.name, e.input);
      if (paths === undefined) continue;
      const write: FileWrite = {
        runId: run.id,
        agentId: run.agentId,
        tool: e.name,
        paths,
        answered: e.refused === true,
        refused: e.refused === true,
      };
      out.push(write);
      byCall.set(e.id, write);
    } else if (e.type === "tool_result") {
      const write = byCall.get(e.toolUseId);
      if (!write) continue;
      write.answered = true;
      write.refused ||= e.isError;
    }
  }
  return out;
}
