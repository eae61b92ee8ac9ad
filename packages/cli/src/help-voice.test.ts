// The help speaks the product's words. A user cannot look up a rule id (C4-n, MC-n,
// OP-n) or a SPEC section — the specification is not shipped — so no `--help` text cites one.
import { describe, expect, it } from "vitest";
import { runCli } from "./testing/run-cli.js";

const COMMANDS = [
  "demo",
  "company",
  "agents",
  "connectors",
  "approvals",
  "wake",
  "run",
  "tasks",
  "schedules",
  "serve",
  "usage",
  "budgets",
  "sessions",
  "models",
  "prompts",
  "migrate",
  "worker",
  "mcp",
  "standin",
  "eval",
  "translate",
  "cache-report",
];

describe("--help, in the product's words", () => {
  it("no command's help cites a rule id or a SPEC section", async () => {
    const texts: Array<[string, string]> = [["cadre", (await runCli(["--help"])).out]];
    for (const c of COMMANDS) {
      const r = await runCli([c, "--help"]);
      texts.push([c, `${r.out}${r.err}`]);
    }
    for (const [c, text] of texts) {
      expect(text.length, c).toBeGreaterThan(100);
      expect(text.match(/\b(?:MC|C4|OP)-\d+\b|\bSPEC\b|§\s?\d/g) ?? [], c).toEqual([]);
    }
  });
});
