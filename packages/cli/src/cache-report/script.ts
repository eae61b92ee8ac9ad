// The offline model's script for the cache report: a CEO that hires through the real hire_agent
// tool, files its strategy through file_approval, keeps hiring after that (and is refused, so error
// results are part of the transcript) and replies to each tool result. Deterministic: every reply
// is computed from the request.
import { OFFLINE_MODEL_ID } from "@cadre/core";
// A script for the offline connector's scripted model, whose types live in `@cadre/core/offline`.
import type { Script, ScriptReply } from "@cadre/core/offline";

export const REPLY_ONLY = "[reply only]";

const HIRES: ReadonlyArray<readonly [name: string, role: string, department: string]> = [
  ["CTO", "Chief Technology Officer", "engineering"],
  ["CPO", "Chief Product Officer", "product"],
  ["CFO", "Chief Financial Officer", "finance"],
  ["CMO", "Chief Marketing Officer", "marketing"],
  ["COO", "Chief Operating Officer", "operations"],
];

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((c: { type?: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "")).join("")
    : "";
}

export const cacheReportScript: Script = ({ context }): ScriptReply => {
  const last = context.messages.at(-1);
  if (last?.role === "toolResult") {
    return {
      content: [
        { type: "text", text: `${last.isError ? "Refused" : "Done"}: ${textOf(last.content).slice(0, 80)}` },
      ],
    };
  }
  if (textOf(last?.content).includes(REPLY_ONLY))
    return { content: [{ type: "text", text: "Status: the team and the strategy are as reported above." }] };
  // What this transcript already asked for decides the next action (a rewind makes it ask again).
  const asked = context.messages.reduce(
    (n, m) => n + (m.role === "assistant" ? m.content.filter((b) => b.type === "toolCall").length : 0),
    0,
  );
  if (asked === HIRES.length) {
    return {
      content: [
        { type: "text", text: "Filing the strategy." },
        {
          type: "toolCall",
          name: "file_approval",
          arguments: {
            type: "approve_ceo_strategy",
            title: "Strategy",
            payload: "Build the robots, then sell them.",
          },
        },
      ],
    };
  }
  const [name, role, department] = HIRES[asked % HIRES.length] as (typeof HIRES)[number];
  return {
    content: [
      { type: "text", text: `Hiring the ${role}.` },
      {
        type: "toolCall",
        name: "hire_agent",
        arguments: {
          name,
          role,
          description: `Leads ${department}.`,
          connectorId: "offline",
          model: OFFLINE_MODEL_ID,
          department,
        },
      },
    ],
  };
};
