// `cadre prompts check|diff|lock|list`: the system-prompt lock (MC-7). Every text that can reach a
// model's system part (company's `lockedTexts()`) is compared with the committed lock file;
// `npm run check` runs `cadre prompts check`, so an unrecorded change fails the build.
import { fileURLToPath } from "node:url";
import { checkPromptContract, describeContractProblem, lockedTexts } from "@cadre/company";
import { comparePromptLock, type PromptLockComparison, sha256 } from "@cadre/core";
import { COMMON_OPTIONS, parse } from "../args.js";
import { type CliIO, UsageError, subcommandRequired } from "../io.js";
import { readPromptLock, readPromptLockLog, relockPrompts } from "../prompts/lock-file.js";
import { diffLines } from "../prompts/text-diff.js";

/** The lock committed with this checkout: prompts.lock.json at the repository root. */
export const DEFAULT_LOCK_PATH = fileURLToPath(new URL("../../../../prompts.lock.json", import.meta.url));

export function logPathFor(lockPath: string): string {
  return lockPath.endsWith(".json")
    ? `${lockPath.slice(0, -".json".length)}.log.jsonl`
    : `${lockPath}.log.jsonl`;
}

export const PROMPTS_HELP = `Usage:
  cadre prompts check [--lock FILE] [--json]     fail (exit 1) when a locked text changed
  cadre prompts diff  [--lock FILE] [--json]     what changed since the lock, line by line
  cadre prompts lock  --reason TEXT --effect TEXT [--lock FILE]
                                                 accept the current texts; appends one record per
                                                 changed text (id, old/new hash, reason, effect, date)
  cadre prompts list  [--json]                   every locked text id with its hash

The lock covers every text that can reach a model's system part or initial turn: segments, mode
documents, cues, tool names/descriptions/schemas and the generated segments' templates.
Default lock: ${DEFAULT_LOCK_PATH} (log: prompts.lock.log.jsonl beside it).`;

async function compare(lockPath: string): Promise<PromptLockComparison> {
  return comparePromptLock(
    await readPromptLock(lockPath),
    await readPromptLockLog(logPathFor(lockPath)),
    lockedTexts(),
  );
}

function summary(c: PromptLockComparison): string[] {
  return [
    ...c.changed.map(
      (x) => `changed  ${x.id} (${x.lockedHash.slice(0, 12)} → ${x.currentHash.slice(0, 12)})`,
    ),
    ...c.added.map((x) => `added    ${x.id} (${x.currentHash.slice(0, 12)})`),
    ...c.removed.map((x) => `removed  ${x.id} (was ${x.lockedHash.slice(0, 12)})`),
    ...c.problems.map((p) => `lock     ${p}`),
  ];
}

export async function promptsCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub) throw subcommandRequired("prompts", ["check", "diff", "lock", "list"]);
  if (sub === "--help" || sub === "-h") return (io.out(`${PROMPTS_HELP}\n`), 0);
  const { values } = parse(`prompts ${sub}`, rest, {
    ...COMMON_OPTIONS,
    lock: { type: "string" },
    reason: { type: "string" },
    effect: { type: "string" },
  });
  if (values.help) return (io.out(`${PROMPTS_HELP}\n`), 0);
  const lockPath = values.lock ?? DEFAULT_LOCK_PATH;
  switch (sub) {
    case "check": {
      const c = await compare(lockPath);
      if (values.json)
        io.out(
          `${JSON.stringify({ ok: c.ok, changed: c.changed.map((x) => x.id), added: c.added.map((x) => x.id), removed: c.removed.map((x) => x.id), problems: c.problems })}\n`,
        );
      // The prompt contract (static: texts against the code's facts), checked with the lock.
      const contract = checkPromptContract();
      if (contract.length > 0) {
        io.err(
          `cadre prompts check: the prompt contract does not hold (a static check of texts against the code, not behaviour):\n${contract
            .map((p) => `  ${describeContractProblem(p)}\n`)
            .join("")}`,
        );
        if (c.ok) return 1;
      }
      if (c.ok) {
        if (!values.json)
          io.out(`prompts: ${lockedTexts().length} texts match ${lockPath}; the prompt contract holds\n`);
        return 0;
      }
      io.err(
        `cadre prompts check: the system-prompt texts differ from ${lockPath}:\n${summary(c)
          .map((l) => `  ${l}\n`)
          .join(
            "",
          )}See \`cadre prompts diff\`; accept with \`cadre prompts lock --reason "…" --effect "…"\` (why it changed, expected effect on behaviour and on the prompt cache).\n`,
      );
      return 1;
    }
    case "diff": {
      const c = await compare(lockPath);
      if (values.json) {
        io.out(
          `${JSON.stringify({ changed: c.changed.map((x) => ({ id: x.id, lockedHash: x.lockedHash, currentHash: x.currentHash, diff: diffLines(x.lockedText, x.currentText) })), added: c.added.map((x) => x.id), removed: c.removed.map((x) => x.id), problems: c.problems })}\n`,
        );
        return 0;
      }
      if (c.ok) return (io.out("prompts: no change since the lock\n"), 0);
      for (const x of c.changed)
        io.out(`--- locked/${x.id}\n+++ current/${x.id}\n${diffLines(x.lockedText, x.currentText)}\n`);
      for (const x of c.added)
        io.out(
          `+++ new text ${x.id}\n${x.currentText
            .split("\n")
            .map((l) => `+${l}`)
            .join("\n")}\n`,
        );
      for (const x of c.removed) io.out(`--- removed text ${x.id}\n`);
      for (const p of c.problems) io.out(`lock: ${p}\n`);
      return 0;
    }
    case "lock": {
      if (!values.reason?.trim())
        throw new UsageError("prompts lock: --reason is required (why the texts changed)");
      if (!values.effect?.trim())
        throw new UsageError(
          "prompts lock: --effect is required (the expected effect on behaviour and on the prompt cache)",
        );
      const records = await relockPrompts({
        lockPath,
        logPath: logPathFor(lockPath),
        texts: lockedTexts(),
        reason: values.reason,
        effect: values.effect,
      });
      if (values.json) return (io.out(`${JSON.stringify({ records })}\n`), 0);
      if (records.length === 0) return (io.out("prompts: nothing to lock, every text matches\n"), 0);
      for (const r of records)
        io.out(
          `locked ${r.id}: ${r.oldHash?.slice(0, 12) ?? "(new)"} → ${r.newHash?.slice(0, 12) ?? "(removed)"}\n`,
        );
      io.out(`${records.length} record(s) appended to ${logPathFor(lockPath)}\n`);
      return 0;
    }
    case "list": {
      const texts = lockedTexts().map((t) => ({
        id: t.id,
        sha256: sha256(t.text),
        characters: t.text.length,
      }));
      if (values.json) return (io.out(`${JSON.stringify({ texts })}\n`), 0);
      for (const t of texts) io.out(`${t.sha256.slice(0, 12)}  ${t.id} (${t.characters} characters)\n`);
      return 0;
    }
    default:
      throw new UsageError(`prompts: unknown subcommand "${sub}"; use check, diff, lock or list`);
  }
}
