// Record/replay cassettes for Pi-routed connectors: a pi-ai stream-function wrapper. Recording
// passes the vendor's stream through untouched and stores the final message under the request's
// key (entry.ts). Replay answers from those files only — offline, no key needed — and a request
// with no recording fails loudly: the call fails and the miss is reported with what differed from
// the nearest recording (parts.ts), so a run can never silently fall back to a live model.
// replay-or-record answers what was recorded and sends a miss to the real call, recording it.
import {
  type AssistantMessage,
  createAssistantMessageEventStream,
  errorMessage,
  type StreamFn,
  UserInputError,
} from "@cadre/core";
import { type CassetteEntry, CassetteCorruptError, listEntries, readEntry, writeEntry } from "./entry.js";
import { normaliseRequest, remapVolatile, requestKey, volatileValues } from "./key.js";
import { diagnoseMiss, hashParts, messageHashes } from "./parts.js";
import { failedCall, replayMessage } from "./replay-stream.js";

export const CASSETTE_RUN_MODES = ["record", "replay", "replay-or-record"] as const;
export type CassetteMode = (typeof CASSETTE_RUN_MODES)[number];

export interface CassetteMiss {
  key: string;
  /** What differed from the nearest recording of the same sample (parts.ts). */
  diagnosis: string;
}

export interface CassetteStats {
  recorded: number;
  replayed: number;
  /** Requests asked for in replay that have no recording. */
  misses: CassetteMiss[];
  /** Cassette files that did not read (the run stops on the first). */
  corrupt: CassetteCorruptError[];
  /** Why an answer replayed came from a stand-in (its entry said so); null when none did. */
  standin: string | null;
}

export interface Cassette {
  streamFn: StreamFn;
  stats(): CassetteStats;
}

export interface CassetteOptions {
  dir: string;
  mode: CassetteMode;
  /** Separates samples (e.g. "scenario#3"); part of every key. */
  salt: string;
  /** The connector kind the calls go through; part of every key (default the model's provider). */
  kind?: string;
  /** The real provider call; required to record, never called in replay. */
  inner?: StreamFn;
  /** Whether the model server has announced itself as a stand-in (recorded with each answer). */
  standin?: () => string | null;
}

/** A replayed sample asked for an answer that was never recorded: the run stops here. */
export class CassetteMissError extends UserInputError {
  constructor(
    readonly scenarioId: string,
    readonly sample: number,
    readonly key: string,
    readonly dir: string,
    readonly diagnosis?: string,
  ) {
    super(
      `cassette miss: scenario ${scenarioId}, sample ${sample}: no recording for request ${key} in ${dir}${diagnosis ? `; ${diagnosis}` : ""}. The candidate sent a request the recording never saw: record again with --cassettes record, or run with --cassettes replay-or-record to record the misses live`,
    );
    this.name = "CassetteMissError";
  }
}

export function newStats(): CassetteStats {
  return { recorded: 0, replayed: 0, misses: [], corrupt: [], standin: null };
}

export function copyStats(stats: CassetteStats): CassetteStats {
  return { ...stats, misses: [...stats.misses], corrupt: [...stats.corrupt] };
}

/** What differed from the nearest recording in `dir`, for a miss message (never throws). */
export async function missDiagnosis(
  dir: string,
  wanted: Parameters<typeof diagnoseMiss>[0],
): Promise<string> {
  try {
    return diagnoseMiss(wanted, await listEntries(dir)).text;
  } catch (error) {
    return `(the recordings could not be compared: ${errorMessage(error)})`;
  }
}

export function openCassette(options: CassetteOptions): Cassette {
  const stats = newStats();

  const record: StreamFn = async (model, context, streamOptions) => {
    if (!options.inner) throw new Error("a recording cassette needs the real stream function (inner)");
    const request = normaliseRequest(model, context, options.salt, options.kind);
    const started = performance.now();
    const upstream = await options.inner(model, context, streamOptions);
    const out = createAssistantMessageEventStream();
    void (async () => {
      for await (const event of upstream) {
        if (event.type === "done" || event.type === "error") {
          const final = event.type === "done" ? event.message : event.error;
          // Written before the final event goes on, so a finished wake has its cassette on disk.
          if (final.stopReason !== "aborted") {
            const standin = options.standin?.() ?? null;
            const entry: CassetteEntry = {
              schemaVersion: 2,
              kind: "cadre-cassette",
              key: requestKey(request),
              parts: hashParts(request),
              messageHashes: messageHashes(request.messages),
              request,
              volatiles: volatileValues(context),
              response: final,
              latencyMs: Math.round(performance.now() - started),
              recordedAt: new Date().toISOString(),
              ...(standin ? { standin } : {}),
            };
            await writeEntry(options.dir, entry);
            stats.recorded++;
          }
        }
        out.push(event);
      }
      out.end(await upstream.result());
    })();
    return out;
  };

  const replay: StreamFn = async (model, context, streamOptions) => {
    const request = normaliseRequest(model, context, options.salt, options.kind);
    const key = requestKey(request);
    let entry;
    try {
      entry = await readEntry(options.dir, key);
    } catch (error) {
      if (!(error instanceof CassetteCorruptError)) throw error;
      stats.corrupt.push(error);
      return failedCall(model, error.message);
    }
    if (entry === undefined || entry.kind !== "cadre-cassette") {
      if (options.mode === "replay-or-record") return record(model, context, streamOptions);
      const diagnosis = await missDiagnosis(options.dir, {
        parts: hashParts(request),
        messageHashes: messageHashes(request.messages),
      });
      stats.misses.push({ key, diagnosis });
      return failedCall(
        model,
        `cassette miss: no recording for request ${key} (salt ${options.salt}, ${context.messages.length} message(s)) in ${options.dir}; ${diagnosis}`,
      );
    }
    stats.replayed++;
    if (entry.standin) stats.standin ??= `replayed from a stand-in's recording (${entry.standin})`;
    const answer: AssistantMessage = entry.response;
    return replayMessage(remapVolatile(answer, entry.volatiles, volatileValues(context)));
  };

  return {
    streamFn: options.mode === "record" ? record : replay,
    stats: () => copyStats(stats),
  };
}
