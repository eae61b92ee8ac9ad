// The OpenAI Chat Completions wire (POST /v1/chat/completions).
import type { WireCodec } from "../codec.js";
import { openaiError } from "../errors.js";
import { normaliseChat } from "./normalise.js";
import { renderChat } from "./render.js";

export const chatWire: WireCodec = {
  wire: "openai-chat",
  normalise: normaliseChat,
  render: renderChat,
  error: (error, context) => openaiError(error, context, "chat"),
};
