// A policy from a JSON file: a list of scripted replies, one per model call, in order
// (see scripted.ts). Each entry is a string (a text answer) or a Reply object:
//   "Hello"                                                     a text answer
//   {"content": [{"type": "text", "text": "…"},
//                {"type": "tool_call", "name": "hire_agent", "input": {…}}]}
//   {"type": "error", "error": {"kind": "rate_limit"}, "retryAfterSeconds": 1}
//   {"type": "hang"}
//   {"content": […], "cut": {"afterEvents": 3, "then": "reset"}}
// The whole file is checked when loaded; the first problem is named with its position.
import { readFile } from "node:fs/promises";
import type { Policy } from "../types.js";
import { scripted, type Step } from "./scripted.js";
import { replyProblem } from "./validate.js";

export class PolicyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PolicyFileError";
  }
}

export function parsePolicyJson(text: string, source: string): Step[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PolicyFileError(`${source}: not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(value) || value.length === 0)
    throw new PolicyFileError(
      `${source}: must be a non-empty JSON list of replies (strings or reply objects)`,
    );
  return value.map((entry, i) => {
    if (typeof entry === "string") return entry;
    const problem = replyProblem(entry, `[${i}]`);
    if (problem) throw new PolicyFileError(`${source}: ${problem}`);
    return entry as Step;
  });
}

export async function loadPolicyFile(path: string): Promise<Policy> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new PolicyFileError(
      `policy file ${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  return scripted(parsePolicyJson(text, `policy file ${path}`));
}
