// The parts of Claude Code's `--output-format stream-json` lines the translator reads
// (Agent SDK message types: SDKSystemMessage, SDKAssistantMessage, SDKUserMessage,
// SDKPartialAssistantMessage, SDKCompactBoundaryMessage, SDKResultMessage).
import type {
  AnthropicContentBlock,
  AnthropicEvent,
  AnthropicUsage,
} from "../../../translators/anthropic-sse/wire.js";

export interface ToolResultBlock {
  type?: string;
  tool_use_id?: string;
  content?: string | ToolResultItem[];
  is_error?: boolean;
}

export interface ToolResultItem {
  type?: string;
  text?: string;
  source?: { type?: string; media_type?: string; data?: string };
}

export interface ClaudeCodeLine {
  type?: string;
  subtype?: string;
  message?: {
    id?: string;
    model?: string;
    content?: string | (AnthropicContentBlock & ToolResultBlock)[];
    stop_reason?: string | null;
    usage?: AnthropicUsage;
  };
  /** stream_event: the raw Anthropic stream event. */
  event?: AnthropicEvent;
  /** user lines: Claude Code's structured result of the tool, beside the model-facing content. */
  tool_use_result?: unknown;
  /** synthetic assistant lines for API failures, e.g. "rate_limit", "authentication_failed". */
  error?: string;
  isApiErrorMessage?: boolean;
  compact_metadata?: { trigger?: string; pre_tokens?: number; post_tokens?: number };
  /** system/status lines (SDKStatusMessage): "compacting" while a compaction runs, null after it. */
  status?: string | null;
  compact_result?: "success" | "failed";
  /** Only some builds send the reason of a failed compaction. */
  compact_error?: string;
  is_error?: boolean;
  result?: string;
  /** error results: what went wrong, e.g. "Reached maximum number of turns (2)". */
  errors?: string[];
  /** system/api_retry lines: Claude Code retries a failed model request (2.1.332). */
  attempt?: number;
  max_retries?: number;
  retry_delay_ms?: number;
  error_status?: number | null;
}
