// What the offline CEO reads from a request, the way a model reads its instructions: the phase,
// the goal, the connectors, the directory and the operator's note, all from the system prompt's
// text — or from the sections a resumed session's prompt says replace it (MC-3: a session's system
// prompt never changes, its updates come per call); and from the transcript of the current turn,
// what its own tool calls returned.
import { type CeoMode, DEPARTMENTS } from "@cadre/model";
import type { Context, Message } from "@mariozechner/pi-ai";
import { MODE_TITLES } from "../modes.js";
import { CEO_PRODUCT_APPEND } from "../prompts/segments.js";
import { SEGMENT_UPDATE_PREAMBLE } from "../prompts/session-update.js";

export interface PromptConnector {
  id: string;
  ready: boolean;
  models: string[];
}

export interface MemberView {
  name: string;
  role: string;
  department: string | undefined;
  self: boolean;
}

export interface PromptView {
  companyName: string;
  goal: string;
  mode: CeoMode | undefined;
  connectors: PromptConnector[];
  directory: MemberView[];
  operatorNote: string | undefined;
  tools: string[];
  /** The instructions say to hire with hire_agent (only the mode documents name it in the system prompt). */
  hiringInstructed: boolean;
}

const DEPARTMENT_WORDS: ReadonlySet<string> = new Set(DEPARTMENTS);

function line(system: string, label: string): string | undefined {
  const match = new RegExp(`^${label}: (.*)$`, "m").exec(system);
  return match?.[1];
}

function section(system: string, heading: string): string[] {
  const start = system.indexOf(`## ${heading}\n`);
  if (start < 0) return [];
  const rest = system.slice(start + heading.length + 4);
  const end = rest.search(/\n\n|\n## /);
  return (end < 0 ? rest : rest.slice(0, end)).split("\n");
}

function textOf(message: Message): string {
  if (message.role === "assistant") return "";
  return typeof message.content === "string"
    ? message.content
    : message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/**
 * A session lives across wakes: the current product turn is what follows its latest prompt (a
 * model reads the latest request as the task; earlier turns are history).
 */
export function currentTurn(context: Context): Context {
  let at = -1;
  for (let i = context.messages.length - 1; i >= 0; i--)
    if (context.messages[i]?.role === "user") {
      at = i;
      break;
    }
  return at <= 0 ? context : { ...context, messages: context.messages.slice(at) };
}

/** The sections the turn's prompt says replace parts of the system prompt, if it says so. */
function updatedSections(context: Context): string | undefined {
  const prompt = context.messages.find((m) => m.role === "user");
  if (!prompt) return undefined;
  const text = textOf(prompt);
  const at = text.indexOf(SEGMENT_UPDATE_PREAMBLE);
  if (at < 0) return undefined;
  const rest = text.slice(at + SEGMENT_UPDATE_PREAMBLE.length);
  const end = rest.indexOf("\n---\n\n");
  return end < 0 ? rest : rest.slice(0, end);
}

export function readPrompt(context: Context): PromptView {
  const updated = updatedSections(context);
  // Where a section was replaced, the replacement is read first (the first match wins below).
  const system = updated
    ? `${updated.trim()}\n\n${context.systemPrompt ?? ""}`
    : (context.systemPrompt ?? "");
  const instructions =
    updated !== undefined && updated.includes(CEO_PRODUCT_APPEND) ? updated : (context.systemPrompt ?? "");
  const phase = line(system, "Current phase");
  const mode = (Object.entries(MODE_TITLES) as Array<[CeoMode, string]>).find(
    ([, title]) => title === phase,
  )?.[0];
  const connectors: PromptConnector[] = [];
  for (const l of section(system, "Available connectors")) {
    const m = /^- (\S+): .*?\. (Ready|Not ready \(.*\))\. Models: (.*)$/.exec(l);
    if (m)
      connectors.push({
        id: m[1] as string,
        ready: m[2] === "Ready",
        models: m[3] === "none" ? [] : (m[3] as string).split(", "),
      });
  }
  const directory: MemberView[] = [];
  for (const l of section(system, "Company directory")) {
    const m = /^- (.+?): (.+?)( \(you\))?$/.exec(l);
    if (!m) continue;
    const parts = (m[2] as string).split(", ");
    directory.push({
      name: m[1] as string,
      role: parts[0] as string,
      department: parts.find((p) => DEPARTMENT_WORDS.has(p)),
      self: Boolean(m[3]),
    });
  }
  return {
    companyName: line(system, "Name") ?? "the company",
    goal: line(system, "Goal") ?? "",
    mode,
    connectors,
    directory,
    operatorNote: line(system, "Operator's note"),
    tools: (context.tools ?? []).map((t) => t.name),
    hiringInstructed: /\bhire_agent\b/.test(instructions),
  };
}

export interface ToolCallRecord {
  name: string;
  arguments: Record<string, unknown>;
  ok: boolean;
  resultText: string;
}

// A window rebuilt by the host (a compaction summary or a rollover handoff, MC-9) lists the tool
// calls that succeeded before it as decisions: "- NAME succeeded: {arguments}". A model reads them
// as done work; so does the offline CEO, or it would hire the same role twice after a rollover.
const DECISIONS = "\n## Decisions\n";
const DECISION_LINE = /^- (\w+) succeeded: (\{.*\})$/;

function handedOffCalls(text: string): ToolCallRecord[] {
  const at = text.indexOf(DECISIONS);
  if (at < 0) return [];
  const out: ToolCallRecord[] = [];
  for (const line of text.slice(at + DECISIONS.length).split("\n")) {
    if (!line.startsWith("- ")) break;
    const m = DECISION_LINE.exec(line);
    if (!m) continue;
    try {
      out.push({
        name: m[1] as string,
        arguments: JSON.parse(m[2] as string) as Record<string, unknown>,
        ok: true,
        resultText: "",
      });
    } catch {
      // A line cut by the handoff's byte cap is not evidence of anything: skip it.
    }
  }
  return out;
}

/** The session's tool calls in order, each paired with its result (including those a handoff lists as done). */
export function toolHistory(messages: Message[]): ToolCallRecord[] {
  const calls = new Map<string, { name: string; arguments: Record<string, unknown> }>();
  const out: ToolCallRecord[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text =
        typeof message.content === "string"
          ? message.content
          : message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      out.push(...handedOffCalls(text));
    } else if (message.role === "assistant") {
      for (const block of message.content)
        if (block.type === "toolCall") calls.set(block.id, { name: block.name, arguments: block.arguments });
    } else if (message.role === "toolResult") {
      const call = calls.get(message.toolCallId);
      const text = message.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      out.push({
        name: call?.name ?? message.toolName,
        arguments: call?.arguments ?? {},
        ok: !message.isError,
        resultText: text,
      });
    }
  }
  return out;
}
