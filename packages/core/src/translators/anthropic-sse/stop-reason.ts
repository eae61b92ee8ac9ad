import type { StopReason } from "../../types.js";

/** Anthropic `stop_reason` → StopReason. The vendor string is kept beside it as `vendorStopReason`. */
export function anthropicStopReason(vendor: string | null | undefined): StopReason {
  switch (vendor) {
    case "end_turn":
    case "tool_use":
    case "max_tokens":
    case "stop_sequence":
    case "refusal":
      return vendor;
    case "pause_turn":
      return "pause";
    case "model_context_window_exceeded": // output cut by the window: a length stop
      return "max_tokens";
    default:
      return "other";
  }
}

/** Error types Anthropic documents as transient (worth a retry). */
export function anthropicRetryable(errorType: string | undefined): boolean {
  return (
    errorType === "overloaded_error" ||
    errorType === "api_error" ||
    errorType === "rate_limit_error" ||
    errorType === "timeout_error"
  );
}
