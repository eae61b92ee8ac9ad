// The parts of `codex exec --json` lines the translator reads (codex-rs/exec/src/exec_events.rs:
// ThreadEvent, ThreadItem and its details).

export interface CodexItem {
  id?: string;
  type?: string;
  /** agent_message, reasoning */
  text?: string;
  /** command_execution */
  command?: string;
  aggregated_output?: string;
  exit_code?: number | null;
  status?: string;
  /** file_change */
  changes?: { path?: string; kind?: string }[];
  /** mcp_tool_call */
  server?: string;
  tool?: string;
  arguments?: unknown;
  result?: { content?: McpContent[]; structured_content?: unknown } | null;
  error?: { message?: string } | null;
  /** web_search */
  query?: string;
  action?: unknown;
  /** error item */
  message?: string;
}

export interface McpContent {
  type?: string;
  text?: string;
  data?: string;
  mimeType?: string;
}

export interface CodexLine {
  type?: string;
  item?: CodexItem;
  usage?: { input_tokens?: number; cached_input_tokens?: number; output_tokens?: number };
  error?: { message?: string };
  message?: string;
}
