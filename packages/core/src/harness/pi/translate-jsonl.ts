// Pi agent events as JSON lines (what `Agent.subscribe` delivers, one per line) → AgentEvents,
// through the same translator the live Pi harness uses, so captured and live streams agree.
import type { AgentEvent as PiEvent } from "@mariozechner/pi-agent-core";
import { createPiTranslatorState, translatePiEvent } from "./translate.js";
import type { AgentEvent } from "../../types.js";
import { runJsonl, type ByteStream, type RecordTranslator } from "../../translators/drive.js";
import { cutMessage } from "../../translators/errors.js";

function piJsonlTranslator(): RecordTranslator {
  const state = createPiTranslatorState();
  let ended = false;
  return {
    record(record, _line, out) {
      const event = record as unknown as PiEvent;
      if (event.type === "agent_end") ended = true;
      for (const translated of translatePiEvent(event, state)) out.push(translated);
    },
    end(out, cut) {
      if (!ended) out.push(cutMessage(cut, "agent_end"));
    },
  };
}

export function translatePiJsonl(input: ByteStream): AsyncGenerator<AgentEvent> {
  return runJsonl(input, piJsonlTranslator());
}
