// Cassettes for harnesses that run their own loop (Claude Code, Codex): Cadre does not see their
// model calls, but it sees their translated event stream (the union events). A wake is keyed on
// (connector kind, model, system prompt, tools offered, MCP server config, prompt) and its whole
// event stream is recorded; a replay emits it again WITHOUT launching the binary. The company tools
// are real side effects the recorded answers depend on, so a replay executes each company tool call
// it meets against this run's store (the same validation and execution an MCP call gets) and checks
// that the result reads as the recorded one (ids aside): a tool that now answers differently stops
// the replay as diverged instead of replaying answers to results that never happened.
import {
  type AgentEvent,
  BaseAgent,
  callTool,
  type Emit,
  type HarnessSessionState,
  mcpToolName,
  TOOL_SERVER_NAME,
  type ToolResultContent,
  type TurnOutcome,
} from "@cadre/core";
import type { HarnessSessionCall } from "@cadre/company";
import { hashOf } from "../data/hash.js";
import { normaliseArgs, redactVolatile } from "../trace/normalise.js";
import { type CassetteMode, type CassetteStats, copyStats, missDiagnosis, newStats } from "./cassette.js";
import { CassetteCorruptError, type HarnessCassetteEntry, readEntry, writeEntry } from "./entry.js";
import { learnVolatiles, remapWith, untimed, volatilesOf } from "./key.js";
import { hashParts } from "./parts.js";

export interface HarnessRequest {
  salt: string;
  kind: string;
  model: string;
  system: string;
  tools: Array<{ name: string; description: string; parameters: unknown }>;
  mcp: unknown;
  prompt: string;
}

export function normaliseHarnessRequest(
  call: Pick<HarnessSessionCall, "kind" | "config" | "mcp">,
  prompt: string,
  salt: string,
): HarnessRequest {
  return normaliseArgs({
    salt,
    kind: call.kind,
    model: `${call.config.model.provider}/${call.config.model.id}`,
    system: call.config.systemPrompt,
    tools: call.config.tools.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
    })),
    mcp: call.mcp ?? null,
    prompt: untimed(prompt),
  }) as HarnessRequest;
}

export interface HarnessCassetteStats extends CassetteStats {
  /** Replays stopped because a company tool answered differently from the recording. */
  diverged: string[];
}

export interface HarnessCassette {
  /** For SessionInput.wrapHarness: the session the wake drives instead of the harness's own. */
  wrap(call: HarnessSessionCall): BaseAgent;
  stats(): HarnessCassetteStats;
}

export interface HarnessCassetteOptions {
  dir: string;
  mode: CassetteMode;
  /** Separates samples (e.g. "scenario#3"); part of every key. */
  salt: string;
  /** Whether the model server has announced itself as a stand-in (recorded with each wake). */
  standin?: () => string | null;
}

export function openHarnessCassette(options: HarnessCassetteOptions): HarnessCassette {
  const stats = newStats();
  const diverged: string[] = [];
  return {
    wrap: (call) => new CassetteSession(call, options, stats, diverged),
    stats: () => ({ ...copyStats(stats), diverged: [...diverged] }),
  };
}

const textOf = (content: readonly ToolResultContent[]) =>
  content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType}]`)).join("\n");
/** What a tool result says with its ids, ports and times masked: equal for the same answer in two runs. */
const masked = (text: string) => untimed(redactVolatile(text));

class CassetteSession extends BaseAgent {
  #inner: BaseAgent | undefined;

  constructor(
    private readonly call: HarnessSessionCall,
    private readonly options: HarnessCassetteOptions,
    private readonly counts: CassetteStats,
    private readonly diverged: string[],
  ) {
    super(call.config);
  }

  protected async execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
    const request = normaliseHarnessRequest(this.call, prompt, this.options.salt);
    const key = hashOf(request);
    let entry;
    if (this.options.mode !== "record") {
      try {
        entry = await readEntry(this.options.dir, key);
      } catch (error) {
        if (!(error instanceof CassetteCorruptError)) throw error;
        this.counts.corrupt.push(error);
        emit({ type: "error", message: error.message, code: "cassette_corrupt" });
        return { status: "failed", reason: error.message };
      }
    }
    if (entry?.kind === "cadre-harness-cassette") return this.replay(entry, prompt, emit, signal);
    if (this.options.mode === "replay") {
      const diagnosis = await missDiagnosis(this.options.dir, { parts: hashParts(request) });
      this.counts.misses.push({ key, diagnosis });
      const reason = `cassette miss: no recording of this ${this.call.kind} wake (${key}, salt ${this.options.salt}) in ${this.options.dir}; ${diagnosis}`;
      emit({ type: "error", message: reason, code: "cassette_miss" });
      return { status: "failed", reason };
    }
    return this.live(request, key, prompt, emit);
  }

  /** The real harness, its every event passed on and kept; the stream is written once it ended. */
  private async live(request: HarnessRequest, key: string, prompt: string, emit: Emit): Promise<TurnOutcome> {
    this.#inner ??= this.call.launch();
    const started = performance.now();
    const events: AgentEvent[] = [];
    let outcome: TurnOutcome = { status: "failed", reason: "the harness ended without a terminal event" };
    for await (const event of this.#inner.send(prompt)) {
      // A slow consumer pauses the reading of the harness's stream here, as it would the harness (MC-4).
      await this.roomForEvents();
      events.push(event);
      if (event.type === "terminal") {
        outcome = { status: event.status, ...(event.reason !== undefined ? { reason: event.reason } : {}) };
        break;
      }
      emit(event);
    }
    // A cancelled wake is not an answer: nothing is recorded for it.
    if (outcome.status !== "cancelled" && events.at(-1)?.type === "terminal") {
      const standin = this.options.standin?.() ?? null;
      const entry: HarnessCassetteEntry = {
        schemaVersion: 1,
        kind: "cadre-harness-cassette",
        key,
        parts: hashParts(request),
        request,
        volatiles: volatilesOf([this.call.config.systemPrompt, prompt]),
        events,
        latencyMs: Math.round(performance.now() - started),
        recordedAt: new Date().toISOString(),
        ...(standin ? { standin } : {}),
      };
      await writeEntry(this.options.dir, entry);
      this.counts.recorded++;
    }
    return outcome;
  }

  /** The recorded stream again, no binary launched; company tool calls run against this run's store. */
  private async replay(
    entry: HarnessCassetteEntry,
    prompt: string,
    emit: Emit,
    signal: AbortSignal,
  ): Promise<TurnOutcome> {
    this.counts.replayed++;
    if (entry.standin) this.counts.standin ??= `replayed from a stand-in's recording (${entry.standin})`;
    const map = new Map<string, string>();
    learnVolatiles(map, entry.volatiles, volatilesOf([this.call.config.systemPrompt, prompt]));
    const tools = this.config.tools;
    const companyTool = new Map(tools.map((t) => [mcpToolName(t.name, TOOL_SERVER_NAME), t.name]));
    const results = new Map<string, { text: string }>();
    let calls = 0;
    for (const recorded of entry.events) {
      await this.roomForEvents();
      if (signal.aborted) return { status: "cancelled" };
      if (recorded.type === "terminal")
        return {
          status: recorded.status,
          ...(recorded.reason !== undefined ? { reason: remapWith(recorded.reason, map) } : {}),
        };
      if (recorded.type === "tool_result" && results.has(recorded.toolUseId)) {
        const actual = results.get(recorded.toolUseId)!;
        const was = textOf(recorded.content);
        learnVolatiles(map, volatilesOf([was]), volatilesOf([actual.text]));
        if (masked(was) !== masked(actual.text)) {
          const reason = `cassette diverged: ${this.call.kind} wake ${entry.key}, company tool call #${calls} (${recorded.name}) answered differently from the recording — the tool's behaviour or the company's state changed; record again. Recorded: ${clip(was)} Now: ${clip(actual.text)}`;
          this.diverged.push(reason);
          emit({ type: "error", message: reason, code: "cassette_diverged" });
          return { status: "failed", reason };
        }
        emit(remapWith(recorded, map));
        continue;
      }
      const event = remapWith(recorded, map);
      emit(event);
      // A company tool call runs once, where the harness first reports it: Claude Code reports the
      // model's call (toolcall_end) and then its result; Codex reports the call and its execution.
      const call =
        event.type === "toolcall_end" || event.type === "tool_use"
          ? {
              id: recorded.type === "toolcall_end" || recorded.type === "tool_use" ? recorded.id : event.id,
              name: event.name,
              input: event.input,
            }
          : undefined;
      const bare = call ? companyTool.get(call.name) : undefined;
      if (call && bare !== undefined && !results.has(call.id)) {
        calls++;
        const outcome = await callTool(tools, bare, call.input, { toolCallId: call.id, signal });
        results.set(call.id, { text: textOf(outcome.content as ToolResultContent[]) });
      }
    }
    return { status: "failed", reason: `cassette ${entry.key} ended without a terminal event` };
  }

  override cancel(reason?: string): void {
    this.#inner?.cancel(reason);
    super.cancel(reason);
  }

  protected override harnessSessionState(): HarnessSessionState | undefined {
    // A replayed wake ran in no native session: there is nothing for the next wake to continue.
    return this.#inner?.sessionState;
  }

  override async close(): Promise<void> {
    await this.#inner?.close();
  }
}

const clip = (text: string) => JSON.stringify(text.length > 160 ? `${text.slice(0, 160)}…` : text);
