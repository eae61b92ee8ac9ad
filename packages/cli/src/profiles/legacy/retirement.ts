// `cadre serve --retire-legacy-posts --evidence REPORT.json` (C4-6, G5): the legacy profile's POST
// routes answer 410 once an eval report whose G5 is measured and passing says so. The decision is
// refused before anything starts, and recorded with the report's SHA-256 in the data directory.
import { appendFile, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { retirementEvidence } from "@cadre/evals";
import { type CliIO, UsageError } from "../../io.js";

/** Refuses, before anything starts, a retirement without measured, passing G5 evidence. */
async function retirementDecision(retire: boolean | undefined, evidence: string | undefined) {
  if (!retire) {
    if (evidence !== undefined) throw new UsageError("serve: --evidence goes with --retire-legacy-posts");
    return undefined;
  }
  if (evidence === undefined)
    throw new UsageError(
      "serve: --retire-legacy-posts needs --evidence REPORT.json: the eval report (cadre eval run) whose G5 is measured and passing",
    );
  const text = await readFile(evidence, "utf8").catch(() => {
    throw new UsageError(`serve: --evidence ${evidence}: cannot read that file`);
  });
  const checked = retirementEvidence(text);
  if (!checked.ok)
    throw new UsageError(
      `serve: refusing to retire the legacy POST routes on ${evidence}: ${checked.reason}`,
    );
  return {
    report: evidence,
    sha256: checked.sha256,
    evidence: checked.evidence,
    candidate: checked.candidate,
  };
}

export interface LegacyServeSetup {
  /** For startServer. */
  server: { retireLegacyPosts: boolean };
  /** Records the decision in the data directory and says it on stderr (nothing when not retiring). */
  record(dataDir: string, io: CliIO): Promise<void>;
}

export async function legacyServeSetup(values: {
  "retire-legacy-posts"?: boolean | undefined;
  evidence?: string | undefined;
}): Promise<LegacyServeSetup> {
  const retirement = await retirementDecision(values["retire-legacy-posts"], values.evidence);
  return {
    server: { retireLegacyPosts: retirement !== undefined },
    async record(dataDir, io) {
      if (!retirement) return;
      await mkdir(dataDir, { recursive: true });
      await appendFile(
        join(dataDir, "legacy-retirement.jsonl"),
        `${JSON.stringify({ at: new Date().toISOString(), decision: "retire-legacy-posts", ...retirement })}\n`,
      );
      io.err(
        `cadre serve: legacy POST routes retired on the evidence of ${retirement.report} (sha256 ${retirement.sha256.slice(0, 12)}): ${retirement.evidence}\n`,
      );
    },
  };
}
