// Renders a live AgentEvent stream for a terminal: text as it streams, each tool call with its
// arguments and result, hires and approvals called out, usage per model call.
import { companyTool } from "@cadre/company";
import type { AgentEvent } from "@cadre/core";

const MAX_RESULT = 400;

function clip(text: string, max = MAX_RESULT): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length - max} more characters)` : text;
}

export function createRenderer(write: (text: string) => void, speaker: string) {
  let inText = false;
  const endText = () => {
    if (inText) write("\n");
    inText = false;
  };
  return (event: AgentEvent): void => {
    switch (event.type) {
      case "turn_start":
        endText();
        write(`\n▸ model call ${event.turn}\n`);
        return;
      case "text_start":
        endText();
        write(`  ${speaker}: `);
        inText = true;
        return;
      case "text_delta":
        write(event.delta);
        return;
      case "text_end":
        endText();
        return;
      case "thinking_start":
        endText();
        write("  (thinking…)\n");
        return;
      case "tool_use":
        endText();
        write(
          `  → ${event.name} ${clip(JSON.stringify(event.input))}${event.refused ? " (refused by the harness: it has no such tool)" : ""}\n`,
        );
        return;
      case "tool_result": {
        endText();
        const text = event.content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType}]`)).join("");
        write(`  ← ${event.isError ? "refused" : "ok"}: ${clip(text)}\n`);
        // A company tool's own line on what it did (a hire, a filing, a task change: its registry entry).
        const summarize = event.isError ? undefined : companyTool(event.name)?.summarize;
        if (summarize && typeof event.details === "object" && event.details !== null)
          write(`  ✓ ${summarize(event.details)}\n`);
        return;
      }
      case "usage":
        endText();
        write(
          `  usage: input ${event.usage.input}, output ${event.usage.output}, cache read ${event.usage.cacheRead}, cache write ${event.usage.cacheWrite}\n`,
        );
        return;
      case "compaction_start":
        endText();
        write(`  ⟳ compaction (${event.reason})\n`);
        return;
      case "compaction_end":
        write(`  ⟳ compaction ${event.ok ? "done" : `failed: ${event.error}`}\n`);
        return;
      case "recovery":
        endText();
        write(`  ${event.action === "replay" ? "↻ replay" : "✗ no replay"}: ${event.reason}\n`);
        return;
      case "rollover":
        endText();
        write(`  ⇢ rollover: ${event.reason} (handoff ${event.handoffBytes} bytes)\n`);
        return;
      case "compression":
        endText();
        write(`  ⇲ compression (${event.trigger}): ${event.action} — ${event.reason}\n`);
        return;
      case "session":
        // Only what an operator should notice: a failed resume healed (a new or resumed one is in the summary).
        if (event.action !== "self-healed") return;
        endText();
        write(`  ◇ session healed: ${event.reason ?? "the resume failed"}\n`);
        return;
      case "error":
        endText();
        write(`  ✗ error: ${event.message}\n`);
        return;
      case "terminal":
        endText();
        write(`■ ${event.status}${event.reason ? `: ${event.reason}` : ""}\n`);
        return;
      default:
        return;
    }
  };
}
