// The parts of OpenAI Chat Completions stream chunks the translator reads
// (https://platform.openai.com/docs/api-reference/chat-streaming).

export interface ChatToolCallDelta {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

export interface ChatChoiceDelta {
  index?: number;
  delta?: {
    role?: string;
    content?: string | null;
    refusal?: string | null;
    /** Not OpenAI's own field: OpenAI-compatible servers (DeepSeek, vLLM, OpenRouter) stream reasoning here. */
    reasoning_content?: string | null;
    reasoning?: string | null;
    tool_calls?: ChatToolCallDelta[];
  };
  finish_reason?: string | null;
}

export interface ChatUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

export interface ChatChunk {
  id?: string;
  model?: string;
  choices?: ChatChoiceDelta[];
  usage?: ChatUsage | null;
  error?: { message?: string; code?: string | null; type?: string };
}
