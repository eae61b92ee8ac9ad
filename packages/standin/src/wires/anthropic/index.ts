// The Anthropic Messages wire (POST /v1/messages, /v1/messages/count_tokens).
import type { WireCodec } from "../codec.js";
import { anthropicError } from "../errors.js";
import { normaliseAnthropic } from "./normalise.js";
import { renderAnthropic } from "./render.js";

export const anthropicWire: WireCodec = {
  wire: "anthropic",
  normalise: (body, headers, path) => normaliseAnthropic(body, headers, path),
  render: renderAnthropic,
  error: anthropicError,
};

export { normaliseAnthropic };
