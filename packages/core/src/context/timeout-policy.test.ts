import { describe, expect, it } from "vitest";
import { HARNESS_KINDS } from "./harness-kind.js";
import {
  CODEX_RECONNECT_WATCHDOG_MS,
  timeoutPolicy,
  type RecoveryAction,
  type TimeoutFailure,
  type TimeoutKind,
} from "./timeout-policy.js";

const FORBIDDEN: RecoveryAction[] = ["rollover", "replay", "compress", "auto-continue"];

type Row = [name: string, failure: TimeoutFailure, allowed: RecoveryAction[]];

const rows: Row[] = [
  [
    "MC-11 a Pi prompt timeout may hand off",
    { harness: "pi", kind: "pi-prompt-timeout", source: "protocol" },
    ["handoff", "report"],
  ],
  [
    "MC-11 a remote Pi prompt timeout has no local handoff",
    { harness: "pi", kind: "pi-prompt-timeout", source: "protocol", remote: true },
    ["report"],
  ],
  [
    "MC-11 a Claude Code timeout only reports",
    { harness: "claude-code", kind: "request-timeout", source: "protocol" },
    ["report"],
  ],
  [
    "MC-11 a Codex timeout only reports",
    { harness: "codex", kind: "request-timeout", source: "protocol" },
    ["report"],
  ],
  [
    "MC-11 a prompt-timeout label on Codex is an ordinary timeout",
    { harness: "codex", kind: "pi-prompt-timeout", source: "protocol" },
    ["report"],
  ],
  [
    "MC-11 a prompt-timeout label on Claude Code is an ordinary timeout",
    { harness: "claude-code", kind: "pi-prompt-timeout", source: "protocol" },
    ["report"],
  ],
  [
    "MC-11 an ordinary Pi request timeout only reports",
    { harness: "pi", kind: "request-timeout", source: "protocol" },
    ["report"],
  ],
  [
    "MC-11 a network failure only reports",
    { harness: "pi", kind: "network", source: "protocol" },
    ["report"],
  ],
  [
    "MC-11 the Codex reconnect watchdog is only a fallback close-out",
    { harness: "codex", kind: "watchdog", source: "watchdog" },
    ["report"],
  ],
  [
    "MC-11 a watchdog reporting a Pi prompt timeout does not hand off",
    { harness: "pi", kind: "pi-prompt-timeout", source: "watchdog" },
    ["report"],
  ],
  [
    "MC-11 stderr text never drives recovery",
    { harness: "pi", kind: "pi-prompt-timeout", source: "stderr" },
    [],
  ],
  [
    "MC-11 stderr network text never drives recovery",
    { harness: "codex", kind: "network", source: "stderr" },
    [],
  ],
];

describe("MC-11 timeout policy", () => {
  it.each(rows)("%s", (_name, failure, allowed) => {
    expect(timeoutPolicy(failure).allowed).toEqual(allowed);
  });

  it("MC-11 no timeout or network failure ever allows rollover, replay, compression or auto-continue", () => {
    const kinds: TimeoutKind[] = ["pi-prompt-timeout", "request-timeout", "network", "watchdog"];
    for (const harness of HARNESS_KINDS)
      for (const kind of kinds)
        for (const source of ["protocol", "stderr", "watchdog"] as const)
          for (const remote of [false, true]) {
            const { allowed } = timeoutPolicy({ harness, kind, source, remote });
            for (const action of FORBIDDEN) expect(allowed).not.toContain(action);
            if (allowed.includes("handoff"))
              expect({ harness, kind, source, remote }).toEqual({
                harness: "pi",
                kind: "pi-prompt-timeout",
                source: "protocol",
                remote: false,
              });
          }
  });

  it("MC-11 the Codex reconnect watchdog is 120 s", () => {
    expect(CODEX_RECONNECT_WATCHDOG_MS).toBe(120_000);
  });
});
