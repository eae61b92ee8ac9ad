#!/usr/bin/env node
// A stdio MCP server with one tool, `add`, served by Cadre's own adapter from the built core package
// (packages/core/dist): what `cadre mcp` is to the company tools, for the core-level Codex tests.
import { serveToolsOverStdio } from "../../../../dist/mcp/index.js";

const add = {
  name: "add",
  label: "Add",
  description: "Adds two integers.",
  parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"], additionalProperties: false },
  validate(raw) {
    if (!Number.isInteger(raw?.a) || !Number.isInteger(raw?.b)) return { ok: false, message: "add was not run. `a` and `b` must be integers.", fields: { a: "integer", b: "integer" } };
    return { ok: true, value: { a: raw.a, b: raw.b } };
  },
  async execute(input) {
    return { content: [{ type: "text", text: String(input.a + input.b) }], isError: false };
  },
};

await serveToolsOverStdio([add], { name: "cadre" });
