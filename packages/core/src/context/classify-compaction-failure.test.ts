import { describe, expect, it } from "vitest";
import {
  classifyCompactionFailure,
  type CompactionFailureClass,
  type CompactionFailureInput,
  type CompactionPath,
} from "./classify-compaction-failure.js";
import { HARNESS_KINDS } from "./harness-kind.js";

type Row = [name: string, input: Omit<CompactionFailureInput, "path">, expected: CompactionFailureClass];

const REMOTE_COMPACT_EIC = "Error running remote compact task: invalid_encrypted_content: could not decrypt";

const rows: Row[] = [
  ["MC-9 empty summary is deterministic", { harness: "claude-code", summary: "" }, "deterministic"],
  ["MC-9 whitespace-only summary is deterministic", { harness: "pi", summary: "  \n\t" }, "deterministic"],
  [
    "MC-9 invalid-request 400 on the compact path is deterministic",
    { harness: "claude-code", status: 400, message: "bad" },
    "deterministic",
  ],
  [
    "MC-9 invalid_request_error code is deterministic",
    { harness: "pi", code: "invalid_request_error" },
    "deterministic",
  ],
  [
    "MC-9 invalid request in the protocol message is deterministic",
    { harness: "pi", message: "invalid_request: messages malformed" },
    "deterministic",
  ],
  [
    "MC-9 Claude Code 2.1.332's irreducible compact (a 400 prompt-too-long behind it) is deterministic",
    {
      harness: "claude-code",
      message: "Compaction failed · conversation could not be reduced below the context limit",
    },
    "deterministic",
  ],
  [
    "MC-9 Claude Code's 529 on the compact path stays transient",
    {
      harness: "claude-code",
      message:
        "Error during compaction: API Error: 529 Overloaded. This is a server-side issue, usually temporary",
    },
    "transient",
  ],
  [
    "MC-9 codex remote-compact hard failure with invalid_encrypted_content is deterministic",
    { harness: "codex", message: REMOTE_COMPACT_EIC },
    "deterministic",
  ],
  [
    "MC-9 codex remote-compact failure with the code field is deterministic",
    { harness: "codex", code: "invalid_encrypted_content", message: "Error running remote compact task" },
    "deterministic",
  ],
  [
    "MC-9 lone invalid_encrypted_content on codex is not a rollover trigger",
    { harness: "codex", code: "invalid_encrypted_content", status: 400 },
    "not-a-compaction-failure",
  ],
  [
    "MC-9 lone invalid_encrypted_content in a message is not a rollover trigger",
    { harness: "codex", message: "invalid_encrypted_content: reasoning stripped" },
    "not-a-compaction-failure",
  ],
  [
    "MC-9 remote-compact marker outside codex is not a codex hard failure",
    { harness: "pi", message: REMOTE_COMPACT_EIC },
    "not-a-compaction-failure",
  ],
  ["MC-9 429 is transient", { harness: "claude-code", status: 429 }, "transient"],
  ["MC-9 529 overloaded is transient", { harness: "claude-code", status: 529 }, "transient"],
  ["MC-9 500 is transient", { harness: "codex", status: 500 }, "transient"],
  ["MC-9 503 is transient", { harness: "pi", status: 503 }, "transient"],
  ["MC-9 408 is transient", { harness: "pi", status: 408 }, "transient"],
  [
    "MC-9 overloaded_error code is transient",
    { harness: "claude-code", code: "overloaded_error" },
    "transient",
  ],
  ["MC-9 ECONNRESET is transient", { harness: "codex", code: "ECONNRESET" }, "transient"],
  ["MC-9 network message is transient", { harness: "pi", message: "socket hang up" }, "transient"],
  [
    "MC-9 timeout message is transient",
    { harness: "claude-code", message: "Request timed out" },
    "transient",
  ],
  ["MC-9 abort is transient (never a rollover)", { harness: "claude-code", code: "AbortError" }, "transient"],
  [
    "MC-9 transient evidence outranks an empty summary",
    { harness: "claude-code", status: 529, summary: "" },
    "transient",
  ],
  [
    "MC-9 unclassified failure is transient, never a rollover on a guess",
    { harness: "pi", status: 401, message: "unauthorized" },
    "transient",
  ],
  ["MC-9 failure with no evidence at all is transient", { harness: "codex" }, "transient"],
];

const paths: CompactionPath[] = ["silent", "manual", "rewind", "cancel"];

describe("classifyCompactionFailure", () => {
  it.each(rows)("%s", (_name, input, expected) => {
    for (const path of paths) {
      const verdict = classifyCompactionFailure({ ...input, path });
      expect(verdict.kind).toBe(expected);
      expect(verdict.reason).toContain(`${input.harness}/${path}`);
    }
  });

  it("MC-9 one classifier: silent, rewind, cancel and manual paths classify alike", () => {
    for (const [, input] of rows) {
      const kinds = new Set(paths.map((path) => classifyCompactionFailure({ ...input, path }).kind));
      expect(kinds.size).toBe(1);
    }
  });

  it("MC-9 lone invalid_encrypted_content is never deterministic on any harness", () => {
    for (const harness of HARNESS_KINDS) {
      expect(
        classifyCompactionFailure({ harness, path: "silent", code: "invalid_encrypted_content", status: 400 })
          .kind,
      ).toBe("not-a-compaction-failure");
    }
  });
});
