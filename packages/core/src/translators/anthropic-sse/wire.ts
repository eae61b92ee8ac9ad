// The parts of Anthropic's Messages streaming events that the translator reads
// (https://docs.anthropic.com/en/docs/build-with-claude/streaming). Everything optional:
// input is untrusted JSON, and unread fields are carried in `unknown` events' raw payloads.

export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

export interface AnthropicContentBlock {
  type?: string;
  text?: string;
  thinking?: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: unknown;
}

export interface AnthropicDelta {
  type?: string;
  text?: string;
  partial_json?: string;
  thinking?: string;
  signature?: string;
  stop_reason?: string | null;
}

export interface AnthropicEvent {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: AnthropicUsage; stop_reason?: string | null };
  content_block?: AnthropicContentBlock;
  delta?: AnthropicDelta;
  usage?: AnthropicUsage;
  error?: { type?: string; message?: string };
}
