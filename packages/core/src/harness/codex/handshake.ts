// What Codex was given by the company's MCP server. Codex's exec stream reports nothing
// about MCP startup (codex-rs exec/src/event_processor_with_jsonl_output.rs maps no MCP startup event
// into `--experimental-json`), so the adapter proves what it can another way:
//  - the server is `required` (config.ts): a thread that started means Codex initialised it and had
//    its tools/list answer before the first model request (a required server that fails stops
//    `thread/start`, naming the server, and no event is written);
//  - the server is Cadre's own (`cadre mcp`, or any server built on serveToolsOverStdio): it records
//    each tools/list it answers — to which client, with which tools — in the handshake file the
//    adapter named in its environment (CADRE_MCP_HANDSHAKE_FILE), before the answer goes out;
//  - Codex offers the model those tools limited to `enabled_tools`, in its `mcp__SERVER` namespace.
// The built-ins cannot be read back from Codex at all: they are what the configuration leaves on.
import { readFile } from "node:fs/promises";

export interface HandshakeRecord {
  server: string;
  client?: { name: string; version: string };
  tools: string[];
}

/** The tools/list answers recorded so far, in order; none when the file does not exist yet. */
export async function readHandshakes(file: string): Promise<HandshakeRecord[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return [];
  }
  const records: HandshakeRecord[] = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const record = JSON.parse(line) as Partial<HandshakeRecord>;
      if (typeof record.server === "string" && Array.isArray(record.tools))
        records.push({
          server: record.server,
          tools: record.tools.filter((t): t is string => typeof t === "string"),
          ...(record.client ? { client: record.client } : {}),
        });
    } catch {
      // a torn line is no record
    }
  }
  return records;
}
