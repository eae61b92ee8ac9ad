// The ToolDefinition → MCP adapter, spoken to by the MCP SDK's real Client over its in-memory
// transport pair: the JSON-RPC messages, schemas and result shapes are the protocol's own.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import { defineTool, textOutcome, type ToolDefinition, type ValidationResult } from "../agent/tool.js";
import { createToolServer } from "./tool-server.js";

const seen: Array<{ input: unknown; toolCallId: string }> = [];
const greet = defineTool({
  name: "greet",
  label: "Greet",
  description: "Greets someone by name.",
  parameters: Type.Object(
    { name: Type.String({ maxLength: 10, description: "Who to greet." }) },
    { additionalProperties: false },
  ),
  validate(raw): ValidationResult<{ name: string }> {
    const name = (raw as { name?: unknown })?.name;
    if (typeof name !== "string" || name.length === 0 || name.length > 10)
      return {
        ok: false,
        message: "greet was not run. `name` must be a string of 1–10 characters.",
        fields: { name: "1–10 characters" },
      };
    if (Object.keys(raw as object).length !== 1)
      return {
        ok: false,
        message: "greet was not run. Only `name` is allowed.",
        fields: { "": "unknown fields" },
      };
    return { ok: true, value: { name } };
  },
  async execute(input, context) {
    seen.push({ input, toolCallId: context.toolCallId });
    if (input.name === "Mallory")
      return textOutcome("greet refuses Mallory: not on the guest list.", true, { reason: "blocked" });
    if (input.name === "Bug") throw new Error("the greeting service is down");
    return textOutcome(`Hello, ${input.name}!`, false, { secret: "details never reach the model" });
  },
});
const picture = defineTool({
  name: "picture",
  label: "Picture",
  description: "Returns a tiny picture.",
  parameters: Type.Object({}, { additionalProperties: false }),
  validate: () => ({ ok: true, value: {} }),
  execute: async () => ({
    content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }],
    isError: false,
  }),
});

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  seen.length = 0;
});

async function connect(tools: ToolDefinition[]) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = await createToolServer(tools);
  await server.connect(serverSide);
  client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("ToolDefinition[] → MCP server", () => {
  it("announces itself as `cadre` and lists the tools in order with their own JSON Schema", async () => {
    const c = await connect([greet, picture]);
    expect(c.getServerVersion()).toMatchObject({ name: "cadre" });
    const { tools } = await c.listTools();
    expect(tools).toEqual([
      {
        name: "greet",
        title: "Greet",
        description: "Greets someone by name.",
        inputSchema: JSON.parse(JSON.stringify(greet.parameters)),
      },
      {
        name: "picture",
        title: "Picture",
        description: "Returns a tiny picture.",
        inputSchema: { type: "object", properties: {}, additionalProperties: false },
      },
    ]);
    expect(tools[0]!.inputSchema).toMatchObject({
      type: "object",
      required: ["name"],
      properties: { name: { type: "string", maxLength: 10 } },
    });
  });

  it("runs a valid call with the tool_use id Claude Code sends in _meta; details stay out of the result", async () => {
    const c = await connect([greet]);
    const result = await c.callTool({
      name: "greet",
      arguments: { name: "Ada" },
      _meta: { "claudecode/toolUseId": "toolu_01Greet" },
    });
    expect(result).toEqual({ content: [{ type: "text", text: "Hello, Ada!" }], isError: false });
    expect(seen).toEqual([{ input: { name: "Ada" }, toolCallId: "toolu_01Greet" }]);
  });

  it("refuses invalid input with the validator's text as an isError result, without executing", async () => {
    const c = await connect([greet]);
    expect(await c.callTool({ name: "greet", arguments: { name: "A very long name" } })).toEqual({
      content: [{ type: "text", text: "greet was not run. `name` must be a string of 1–10 characters." }],
      isError: true,
    });
    expect(await c.callTool({ name: "greet", arguments: { name: "Ada", extra: 1 } })).toMatchObject({
      isError: true,
    });
    expect(await c.callTool({ name: "greet" })).toMatchObject({ isError: true });
    expect(seen).toEqual([]);
  });

  it("turns a handler refusal, a handler that throws, and an unknown tool into readable isError results", async () => {
    const c = await connect([greet]);
    expect(await c.callTool({ name: "greet", arguments: { name: "Mallory" } })).toEqual({
      content: [{ type: "text", text: "greet refuses Mallory: not on the guest list." }],
      isError: true,
    });
    expect(await c.callTool({ name: "greet", arguments: { name: "Bug" } })).toEqual({
      content: [{ type: "text", text: "greet failed: the greeting service is down" }],
      isError: true,
    });
    expect(await c.callTool({ name: "fire_everyone", arguments: {} })).toEqual({
      content: [{ type: "text", text: 'Unknown tool "fire_everyone"; this server offers: greet.' }],
      isError: true,
    });
    // Without Claude Code's _meta the call still gets an id of its own, tagged with this server's
    // random tag: request ids restart on every connection, and a tool-call id must not repeat in a run.
    expect(seen.map((s) => s.toolCallId)).toEqual([
      expect.stringMatching(/^mcp-[0-9a-f]{8}-\d+$/),
      expect.stringMatching(/^mcp-[0-9a-f]{8}-\d+$/),
    ]);
    expect(new Set(seen.map((s) => s.toolCallId)).size).toBe(2);
  });

  it("carries image content", async () => {
    const c = await connect([picture]);
    expect(await c.callTool({ name: "picture", arguments: {} })).toEqual({
      content: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" }],
      isError: false,
    });
  });
});
