// The cache-report scenario (MC-7 measurement): one CEO session on the offline connector, built by
// the real assembler, driven for exactly N model calls with tool calls, tool results (accepted and
// refused), a rewind and a MEMORY.md that changes on disk mid-session. Each call's request is
// recorded as the cache simulation sees it; each call's stable prefix is hashed by the session's
// own guard (the check that fails closed in production).
import { mkdir, writeFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { buildSession, companyTools, createCompany, createSession, loadCompanyState } from "@cadre/company";
import {
  cacheHitRate,
  firstDifferingByte,
  type ModelCallPrefix,
  theoreticalMaxHitRate,
  type Usage,
} from "@cadre/core";
// The offline connector's prefix-cache simulation is what this report measures: its request layout
// comes from the scripted model (`@cadre/core/offline`, the offline connector's model).
import { serialiseRequest } from "@cadre/core/offline";
import { openStore } from "@cadre/store";
import { cacheReportScript, REPLY_ONLY } from "./script.js";

export interface CacheTurn {
  turn: number;
  /** Hash of each system segment as sent, plus `tools` for the tool list. */
  segmentHashes: Record<string, string>;
  /** UTF-8 byte offset where this request first differs from the previous one; null for the first. */
  firstDifferingByte: number | null;
  hitRate: number;
  usage: Usage;
  /** What happened just before this call (cold start, rewind, MEMORY.md edited on disk…). */
  notes: string[];
  /** Byte length of the request, to tell an appended request from one that diverged inside the history. */
  requestBytes: number;
}

export interface CacheScenarioResult {
  turns: CacheTurn[];
  sessionHitRate: number;
  theoreticalMaxHitRate: number;
  /** Every stable segment (and the tool list) hashed identically on every call. */
  stableSegmentsIdentical: boolean;
}

export interface CacheScenarioOptions {
  turns: number;
  /** A scratch directory: the agent's working folder (MEMORY.md) goes under it. */
  workDir: string;
}

export async function runCacheScenario(options: CacheScenarioOptions): Promise<CacheScenarioResult> {
  const store = await openStore({ memory: true });
  try {
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots and sell them to mid-sized logistics companies.",
    });
    const state = await loadCompanyState(store, company.id);
    const ceo = state.ceo;
    const memoryPath = join(options.workDir, "agents", ceo.id, "MEMORY.md");
    await mkdir(join(options.workDir, "agents", ceo.id), { recursive: true });
    await writeFile(
      memoryPath,
      "- goals.md: the company goal in my words\n- market.md: logistics customers to call first\n",
    );
    const memoryIndex = await readFile(memoryPath, "utf8"); // the snapshot, taken at session start
    const runId = "run_cache_report";
    const build = buildSession({
      state,
      agent: ceo,
      mode: state.mode,
      memoryIndex,
      tools: companyTools(store, { companyId: company.id, agentId: ceo.id, via: "tool", runId }),
    });

    const requests: string[][] = [];
    const prefixes: ModelCallPrefix[] = [];
    const session = await createSession({
      sessionId: runId,
      agent: ceo,
      connector: state.connectors.find((c) => c.id === ceo.connectorId)!,
      systemPrompt: build.prompt.systemPrompt,
      segments: build.prompt.segments,
      onModelCall: (prefix) => prefixes.push(prefix),
      tools: build.tools,
      seed: 1,
      script: (request) => {
        requests.push(serialiseRequest(request.context));
        return cacheReportScript(request);
      },
    });

    const usages: Usage[] = [];
    const notesBefore = new Map<number, string[]>([[1, ["cold start"]]]);
    const note = (call: number, text: string) =>
      notesBefore.set(call, [...(notesBefore.get(call) ?? []), text]);
    let exchange = 0;
    let rewound = false;
    let memoryEdited = false;
    while (usages.length < options.turns) {
      exchange++;
      const remaining = options.turns - usages.length;
      // The per-call user prompt is where volatile content belongs (MC-3): here, a counter.
      const prompt = `Check-in ${exchange}: review the company and act.${remaining === 1 ? ` ${REPLY_ONLY}` : ""}`;
      let added = 1; // the user prompt
      for await (const event of session.send(prompt)) {
        if (event.type === "usage") usages.push(event.usage);
        if (event.type === "turn_end" || event.type === "tool_result") added++;
        if (event.type === "error")
          throw new Error(`cache report: model call ${usages.length + 1} failed: ${event.message}`);
      }
      const next = usages.length + 1;
      if (!memoryEdited && next > options.turns / 3) {
        await writeFile(
          memoryPath,
          "- goals.md: the company goal in my words\n- market.md: logistics customers to call first\n- hires.md: who joined and why\n",
        );
        memoryEdited = true;
        note(next, "MEMORY.md changed on disk (the session keeps its start snapshot)");
      }
      if (!rewound && next > options.turns / 2 && options.turns - usages.length >= 2) {
        session.rewind(added);
        rewound = true;
        note(next, `rewind: the last exchange (${added} messages) dropped`);
      }
    }

    const turns: CacheTurn[] = usages.map((usage, i) => {
      const prefix = prefixes[i] as ModelCallPrefix;
      const request = (requests[i] as string[]).join("\n");
      return {
        turn: i + 1,
        segmentHashes: { ...prefix.segmentHashes, tools: prefix.toolsHash },
        firstDifferingByte:
          i === 0 ? null : firstDifferingByte((requests[i - 1] as string[]).join("\n"), request),
        hitRate: cacheHitRate(usage),
        usage,
        notes: notesBefore.get(i + 1) ?? [],
        requestBytes: Buffer.byteLength(request, "utf8"),
      };
    });
    const total = usages.reduce(
      (t, u) => ({ read: t.read + u.cacheRead, prompt: t.prompt + u.input + u.cacheRead + u.cacheWrite }),
      { read: 0, prompt: 0 },
    );
    const reference = JSON.stringify(turns[0]?.segmentHashes);
    return {
      turns,
      sessionHitRate: total.prompt === 0 ? 0 : total.read / total.prompt,
      theoreticalMaxHitRate: theoreticalMaxHitRate(requests),
      stableSegmentsIdentical: turns.every((t) => JSON.stringify(t.segmentHashes) === reference),
    };
  } finally {
    await store.close();
  }
}
