// Record/replay cassettes for real connectors: a pi-ai stream-function wrapper. Recording passes
// the vendor's stream through untouched and stores the final message under the request's key,
// beside the baseline (cassettes/<key>.json). Replay answers from those files only — offline, no
// key needed — and a request with no recording fails loudly: the call fails and the miss is
// reported, so a run can never silently fall back to a live model.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type AssistantMessage,
  createAssistantMessageEventStream,
  type StreamFn,
  UserInputError,
} from "@cadre/core";
import { SchemaVersion, type Static } from "@cadre/model";
import { Type } from "typebox";
import { atFile, child, fail, parseJson, readAs, Sha256 } from "../data/fields.js";
import { normaliseRequest, remapVolatile, requestKey, volatileValues } from "./key.js";
import { failedCall, replayMessage } from "./replay-stream.js";

export type CassetteMode = "record" | "replay";

export const CassetteEntrySchema = Type.Object(
  {
    schemaVersion: SchemaVersion(1),
    kind: Type.Literal("cadre-cassette"),
    key: Sha256(),
    request: Type.Unknown({
      description: "The normalised request, kept so a miss can be diagnosed by diffing against it.",
    }),
    volatiles: Type.Array(Type.String(), {
      description: "The request's generated ids and loopback addresses, mapped onto a replay's (key.ts).",
    }),
    response: Type.Object(
      { role: Type.Literal("assistant"), content: Type.Array(Type.Unknown()) },
      {
        additionalProperties: true,
        description: "The assistant message as the provider answered it (pi-ai's AssistantMessage).",
      },
    ),
    latencyMs: Type.Number({ minimum: 0 }),
    recordedAt: Type.String({ minLength: 1 }),
  },
  { additionalProperties: false },
);

export type CassetteEntry = Omit<Static<typeof CassetteEntrySchema>, "response"> & {
  response: AssistantMessage;
};

export interface CassetteStats {
  recorded: number;
  replayed: number;
  /** Keys asked for in replay that have no recording. */
  misses: string[];
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
  /** The real provider call; required to record, never called in replay. */
  inner?: StreamFn;
}

/** A replayed sample asked for an answer that was never recorded: the run stops here. */
export class CassetteMissError extends UserInputError {
  constructor(
    readonly scenarioId: string,
    readonly sample: number,
    readonly key: string,
    readonly dir: string,
  ) {
    super(
      `cassette miss: scenario ${scenarioId}, sample ${sample}: no recording for request ${key} in ${dir}. The candidate sent a request the recording never saw (a changed prompt, tool or seed); record again with --cassettes record`,
    );
    this.name = "CassetteMissError";
  }
}

export function parseCassetteEntry(text: string, file: string): CassetteEntry {
  const entry = readAs(CassetteEntrySchema, parseJson(text, file), atFile(file));
  return { ...entry, response: entry.response as unknown as AssistantMessage };
}

export function openCassette(options: CassetteOptions): Cassette {
  const stats: CassetteStats = { recorded: 0, replayed: 0, misses: [] };
  const fileOf = (key: string) => join(options.dir, `${key}.json`);

  const replay: StreamFn = async (model, context) => {
    const request = normaliseRequest(model, context, options.salt);
    const key = requestKey(request);
    let text: string;
    try {
      text = await readFile(fileOf(key), "utf8");
    } catch {
      stats.misses.push(key);
      return failedCall(
        model,
        `cassette miss: no recording for request ${key} (salt ${options.salt}, ${context.messages.length} message(s)) in ${options.dir}; record again`,
      );
    }
    const entry = parseCassetteEntry(text, fileOf(key));
    if (entry.key !== key)
      fail(child(atFile(fileOf(key)), "key"), `is ${entry.key}, but the file is named for ${key}`);
    stats.replayed++;
    return replayMessage(remapVolatile(entry.response, entry.volatiles, volatileValues(context)));
  };

  const record: StreamFn = async (model, context, streamOptions) => {
    if (!options.inner) throw new Error("a recording cassette needs the real stream function (inner)");
    const request = normaliseRequest(model, context, options.salt);
    const started = performance.now();
    const upstream = await options.inner(model, context, streamOptions);
    const out = createAssistantMessageEventStream();
    void (async () => {
      for await (const event of upstream) {
        if (event.type === "done" || event.type === "error") {
          const final = event.type === "done" ? event.message : event.error;
          // Written before the final event goes on, so a finished wake has its cassette on disk.
          if (final.stopReason !== "aborted") {
            await mkdir(options.dir, { recursive: true });
            const entry: CassetteEntry = {
              schemaVersion: 1,
              kind: "cadre-cassette",
              key: requestKey(request),
              request,
              volatiles: volatileValues(context),
              response: final,
              latencyMs: Math.round(performance.now() - started),
              recordedAt: new Date().toISOString(),
            };
            await writeFile(fileOf(entry.key), `${JSON.stringify(entry, null, 1)}\n`);
            stats.recorded++;
          }
        }
        out.push(event);
      }
      out.end(await upstream.result());
    })();
    return out;
  };

  return {
    streamFn: options.mode === "record" ? record : replay,
    stats: () => ({ ...stats, misses: [...stats.misses] }),
  };
}
