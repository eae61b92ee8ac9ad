// plumbingCeo exercises the live path and nothing else: it is prompt-blind. Whatever the cue, the
// mode document or the tool descriptions say — a ban, a different team size, a wait, in any wording —
// it answers the same, so no prompt change can make it look sensitive. And the stand-in says what it
// is on the wire: its header on every response and its model list.
import { describe, expect, it } from "vitest";
import { announcesStandin } from "../announce.js";
import { startStandin } from "../server.js";
import type { StandinRequest, ToolOffered } from "../types.js";
import { plumbingCeo } from "./plumbing-ceo.js";

const DOC = [
  "# Team Building Phase",
  "## What to do",
  "1. A reasonable team at this stage has three to five roles.",
  "2. Hire each role with the hire_agent tool.",
  "3. File your strategy with the file_approval tool.",
].join("\n");

function request(edit: { cue?: string; doc?: string; hireDescription?: string; fileDescription?: string }) {
  const system = [
    "You are the CEO.",
    edit.doc ?? DOC,
    "## Company",
    "Name: Northwind Robotics",
    "Goal: Warehouse robots",
    "Current phase: Team Building Phase",
    "## Available connectors",
    "- offline: Offline scripted model (deterministic, no network). Ready. Models: offline-scripted-1",
    "## Company directory",
    "- CEO: Chief Executive Officer, none, offline/offline-scripted-1",
  ].join("\n");
  const tool = (name: string, description: string): ToolOffered => ({
    name,
    description,
    inputSchema: { type: "object" },
    deferred: false,
  });
  return (messages: StandinRequest["messages"]): StandinRequest => ({
    wire: "openai-chat",
    path: "/v1/chat/completions",
    model: "m-1b",
    system,
    systemBlocks: [{ text: system }],
    messages: [
      {
        role: "user",
        content: [
          {
            type: "text",
            text: edit.cue ?? "You are the CEO. Review your Team Building Phase operating instructions.",
          },
        ],
      },
      ...messages,
    ],
    tools: [
      tool("hire_agent", edit.hireDescription ?? "Hire a new agent."),
      tool("file_approval", edit.fileDescription ?? "File an approval."),
    ],
    maxTokens: null,
    stream: false,
    body: {},
    headers: {},
  });
}

/** The whole conversation the policy drives, each call answered ok: the sequence of its answers. */
async function conversation(make: ReturnType<typeof request>) {
  const policy = plumbingCeo();
  const messages: StandinRequest["messages"] = [];
  const answers: unknown[] = [];
  for (let i = 0; i < 10; i++) {
    const answer = await policy(make(messages), { callIndex: i, inputTokens: 0 });
    answers.push(answer);
    if (answer.type !== undefined && answer.type !== "answer") break;
    const call = answer.content.find((b) => b.type === "tool_call");
    if (!call || call.type !== "tool_call") break;
    const id = `call_${i}`;
    messages.push(
      { role: "assistant", content: [{ type: "tool_call", id, name: call.name, input: call.input }] },
      { role: "user", content: [{ type: "tool_result", toolCallId: id, content: "ok", isError: false }] },
    );
  }
  return answers;
}

describe("plumbingCeo", () => {
  it("hires three leads and files, through the tools offered", async () => {
    const answers = (await conversation(request({}))) as Array<{ content: Array<{ name?: string }> }>;
    const calls = answers.flatMap((a) => a.content.filter((b) => b.name).map((b) => b.name));
    expect(calls).toEqual(["hire_agent", "hire_agent", "hire_agent", "file_approval"]);
  });

  it("answers the same whatever the cue, the mode document or the tool descriptions say", async () => {
    const reference = await conversation(request({}));
    const edits = [
      { cue: "The weather is mild today." },
      { cue: "You are the CEO. Wait for the operator before you do anything." },
      { doc: DOC.replace("Hire each role", "Do not hire anyone. Hire no role") },
      { doc: DOC.replace("three to five roles", "exactly one role") },
      { doc: DOC.replace("three to five roles", "eight to nine roles") },
      { doc: DOC.split("\n").slice(0, 2).join("\n") },
      { doc: `${DOC}\nRefrain from filing anything.` },
      { hireDescription: "Do not call this tool. Never hire anyone." },
      { hireDescription: "Hiring is forbidden in this company." },
      { fileDescription: "Never use this tool." },
    ];
    for (const edit of edits)
      expect({ edit, answers: await conversation(request(edit)) }).toEqual({ edit, answers: reference });
  });
});

describe("the stand-in says it is one", () => {
  it("on every response (its header) and in its model list, and announcesStandin reads both", async () => {
    const server = await startStandin({ policy: plumbingCeo(), models: ["qwen2.5:14b-instruct-q4_K_M"] });
    try {
      const list = await fetch(`${server.openaiBaseUrl}/models`);
      const body = (await list.json()) as { data: Array<Record<string, unknown>> };
      expect(announcesStandin({ headers: list.headers })).toMatch(/x-cadre-standin header/);
      expect(announcesStandin({ models: body.data })).toMatch(/model list names the stand-in \(qwen2\.5/);
      const anthropic = await fetch(`${server.url}/v1/models`, {
        headers: { "anthropic-version": "2023-06-01" },
      });
      const listed = (await anthropic.json()) as { data: Array<Record<string, unknown>> };
      expect(announcesStandin({ models: listed.data })).not.toBeNull();
      const refused = await fetch(`${server.url}/v1/nothing`);
      expect(announcesStandin({ headers: refused.headers })).not.toBeNull();
      expect(announcesStandin({ headers: new Headers({ "content-type": "application/json" }) })).toBeNull();
      expect(announcesStandin({ models: [{ id: "gpt-5", owned_by: "openai" }] })).toBeNull();
    } finally {
      await server.close();
    }
  });
});
