import { readFileSync } from "node:fs";
import type { AgentEvent as PiEvent } from "@mariozechner/pi-agent-core";
import type { AssistantMessage } from "@mariozechner/pi-ai";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../types.js";
import { reconstructMessages } from "../../translators/final.js";
import { translatePiJsonl } from "./translate-jsonl.js";

const fixture = readFileSync(new URL("./__fixtures__/tool-round-trip.jsonl", import.meta.url), "utf8");

async function collect(input: string[]): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of translatePiJsonl(
    (async function* () {
      yield* input;
    })(),
  ))
    out.push(e);
  return out;
}

describe("pi-jsonl translator", () => {
  it("--final reconstruction equals Pi's own assistant messages, even from 1-byte chunks", async () => {
    const bytes = new TextEncoder().encode(fixture);
    const chunks: string[] = [];
    const decoder = new TextDecoder();
    for (const b of bytes) chunks.push(decoder.decode(new Uint8Array([b]), { stream: true }));
    const events = await collect(chunks);
    const finals = [];
    for await (const m of reconstructMessages(events)) finals.push(m);
    const end = fixture
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as PiEvent)
      .find((e) => e.type === "agent_end") as Extract<PiEvent, { type: "agent_end" }>;
    const pi = end.messages.filter(
      (m): m is AssistantMessage => (m as { role: string }).role === "assistant",
    );
    expect(finals).toEqual(
      pi.map((m) => ({
        role: "assistant",
        content: m.content.map((b) =>
          b.type === "text"
            ? { type: "text", text: b.text }
            : b.type === "thinking"
              ? { type: "thinking", thinking: b.thinking }
              : { type: "tool_use", id: b.id, name: b.name, input: b.arguments },
        ),
        stopReason: m.stopReason,
        usage: {
          input: m.usage.input,
          output: m.usage.output,
          cacheRead: m.usage.cacheRead,
          cacheWrite: m.usage.cacheWrite,
        },
      })),
    );
  });

  it("a stream cut before agent_end ends with a truncated error event", async () => {
    const lines = fixture.trim().split("\n");
    const events = await collect([lines.slice(0, 20).join("\n") + "\n"]);
    expect(events.at(-1)).toMatchObject({ type: "error", code: "truncated" });
  });
});
