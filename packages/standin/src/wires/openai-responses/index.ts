// The OpenAI Responses wire (POST /v1/responses): what Codex and pi-ai's openai-responses speak.
import type { WireCodec } from "../codec.js";
import { openaiError } from "../errors.js";
import { normaliseResponses } from "./normalise.js";
import { renderResponses } from "./render.js";

export const responsesWire: WireCodec = {
  wire: "openai-responses",
  normalise: normaliseResponses,
  render: renderResponses,
  error: (error, context) => openaiError(error, context, "responses"),
};
