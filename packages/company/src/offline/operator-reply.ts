// The offline CEO's answer to the operator: plumbing, not judgement. When a wake's briefing quotes
// the thread and its latest message is the operator's, the CEO answers once through
// reply_to_operator with where the company stands, as the CEO can read it from its instructions
// (the phase, the team, the operator's note). It never interprets the operator's words — it quotes
// their first line back — and a message decides nothing, so the answer says where decisions go.
import type { CeoMode } from "@cadre/model";
import type { ScriptReply } from "@cadre/core/offline";
import type { Context } from "@mariozechner/pi-ai";
import { firstUserText } from "./operating-script.js";
import { type PromptView, toolHistory } from "./read-prompt.js";

const THREAD_HEADING = "## Your thread with the operator";
const AUTHOR = /^Message \(by (.+)\):$/;

export interface QuotedMessage {
  fromName: string;
  text: string;
}

/** The thread's messages as the briefing quotes them, oldest first. */
export function quotedThread(turn: string): QuotedMessage[] {
  const at = turn.indexOf(`\n${THREAD_HEADING}`);
  if (at < 0) return [];
  const out: QuotedMessage[] = [];
  for (const line of turn
    .slice(at + 1)
    .split("\n")
    .slice(1)) {
    if (line.startsWith("## ")) break;
    const author = AUTHOR.exec(line);
    if (author) out.push({ fromName: author[1] as string, text: "" });
    else if (out.length > 0 && (line === ">" || line.startsWith("> "))) {
      const last = out.at(-1)!;
      last.text = last.text === "" ? line.slice(2) : `${last.text}\n${line.slice(2)}`;
    }
  }
  return out;
}

const clip = (s: string, n: number) => ([...s].length > n ? `${[...s].slice(0, n - 1).join("")}…` : s);

const STANDING: Readonly<Record<CeoMode, string>> = {
  "team-building": "I am building the team; my strategy follows for your decision once the leads are hired.",
  "strategy-drafting": "the team is hired and I am drafting the strategy for your decision.",
  "awaiting-approval":
    "my strategy waits for your decision in the approvals; I hire and file nothing until it is decided.",
  revising: "I am revising the strategy after your decision, and will file it again for you.",
  operating: "the strategy is approved; the leads work their tasks and I review what they hand in.",
};

/** What the CEO writes back: the operator's first line quoted, where the company stands, the team. */
export function standingReport(view: PromptView, message: QuotedMessage): string {
  const first = message.text.split("\n").find((l) => l.trim() !== "") ?? "";
  const team = view.directory.filter((m) => !m.self);
  const lines = [
    `You wrote: “${clip(first.trim(), 120)}”`,
    "",
    `Where ${view.companyName} stands: ${view.mode ? STANDING[view.mode] : "I could not read my phase from my instructions."}`,
    team.length > 0
      ? `The team: ${team.map((m) => `${m.name} (${m.role})`).join(", ")}.`
      : "No one is hired yet.",
  ];
  if (view.mode === "revising" && view.operatorNote)
    lines.push(`Your note I am answering: ${view.operatorNote}`);
  lines.push("", "A message changes no decision: approvals, budgets and the team stay yours to decide.");
  return lines.join("\n");
}

/**
 * reply_to_operator, when the thread's latest message is the operator's and this turn has not
 * answered yet; undefined otherwise (the CEO goes on with its mode's work). Only this window's own
 * calls count as answers: a rolled-over window lists earlier wakes' replies among its decisions,
 * and those answered earlier messages.
 */
export function replyToOperatorMessage(view: PromptView, context: Context): ScriptReply | undefined {
  if (!view.tools.includes("reply_to_operator")) return undefined;
  const live = toolHistory(context.messages.filter((m) => m.role !== "user"));
  if (live.some((h) => h.name === "reply_to_operator")) return undefined;
  const turn = firstUserText(context);
  const latest = quotedThread(turn).at(-1);
  if (!latest || latest.fromName !== "the operator") return undefined;
  return {
    content: [
      { type: "text", text: "Answering the operator first." },
      { type: "toolCall", name: "reply_to_operator", arguments: { text: standingReport(view, latest) } },
    ],
  };
}
