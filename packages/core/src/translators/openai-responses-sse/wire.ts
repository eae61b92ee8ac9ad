// The parts of OpenAI Responses API stream events the translator reads
// (https://platform.openai.com/docs/api-reference/responses-streaming).

export interface ResponsesItem {
  type?: string;
  id?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
  encrypted_content?: string | null;
}

export interface ResponsesUsage {
  input_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens?: number;
}

export interface ResponsesResponse {
  id?: string;
  model?: string;
  status?: string;
  usage?: ResponsesUsage | null;
  incomplete_details?: { reason?: string } | null;
  error?: { code?: string; message?: string } | null;
}

export interface ResponsesEvent {
  type?: string;
  output_index?: number;
  content_index?: number;
  summary_index?: number;
  item?: ResponsesItem;
  part?: { type?: string; text?: string; refusal?: string };
  delta?: string;
  response?: ResponsesResponse;
  /** Fields of the top-level `error` event. */
  code?: string | null;
  message?: string;
}
