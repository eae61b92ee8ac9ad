// A data directory holding one company whose CEO has a finished run of N stored events, written
// through the store and company APIs before a server opens it (the dashboard's long-run test and
// the dashboard benchmark both replay it). The events follow what a real
// harness emits per model call (text, a tool call with arguments and a multi-line result, usage),
// with an error, a compaction and a vendor event mixed in, so rows have varied heights.
import { join } from "node:path";
import { createCompany } from "@cadre/company";
import { openStore } from "@cadre/store";

type Event = { type: string } & Record<string, unknown>;

/** N events ending with the terminal one; deterministic. */
export function longRunEvents(n: number): Event[] {
  const events: Event[] = [];
  let turn = 0;
  while (events.length < n - 1) {
    turn++;
    const id = `call_${turn}`;
    const turnEvents: Event[] = [
      { type: "turn_start", turn },
      { type: "text_start", index: 0 },
      { type: "text_delta", index: 0, delta: `Step ${turn}: ` },
      { type: "text_end", index: 0, text: `Step ${turn}: checking the plan and recording what was learned.` },
      { type: "toolcall_start", index: 1, id, name: "lookup" },
      { type: "toolcall_end", index: 1, id, name: "lookup", input: { query: `item ${turn}`, limit: 3 } },
      { type: "tool_use", id, name: "lookup", input: { query: `item ${turn}`, limit: 3 } },
      {
        type: "tool_result",
        toolUseId: id,
        name: "lookup",
        isError: false,
        content: [
          {
            type: "text",
            text: Array.from({ length: 1 + (turn % 14) }, (_, i) => `line ${i + 1} of result ${turn}`).join(
              "\n",
            ),
          },
        ],
      },
      {
        type: "usage",
        usage: {
          input: 40 + (turn % 7),
          output: 30,
          cacheRead: turn === 1 ? 0 : 900 + turn,
          cacheWrite: turn === 1 ? 900 : 40,
        },
      },
      { type: "turn_end", turn, stopReason: "tool_use" },
    ];
    if (turn % 97 === 0)
      turnEvents.splice(4, 0, {
        type: "error",
        message: `transient failure ${turn}`,
        code: "rate_limited",
        retryable: true,
      });
    if (turn % 211 === 0)
      turnEvents.push(
        { type: "compaction_start", reason: "threshold" },
        { type: "compaction_end", ok: true, tokensBefore: 180_000, tokensAfter: 40_000 },
      );
    if (turn % 157 === 0)
      turnEvents.push({ type: "unknown", vendor: "pi", vendorType: "heartbeat", raw: {} });
    events.push(...turnEvents.slice(0, n - 1 - events.length));
  }
  events.push({ type: "terminal", status: "done" });
  return events;
}

export async function prepareLongRun(
  dataDir: string,
  n: number,
): Promise<{ companyId: string; runId: string }> {
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  try {
    const company = await createCompany(store, { name: "Long Run Co", goal: "A run of many events." });
    const ceo = (await store.listAgents(company.id)).find((a) => a.isCeo)!;
    const runId = "run_long";
    await store.insertRun({
      id: runId,
      companyId: company.id,
      agentId: ceo.id,
      trigger: "routine",
      mode: "team-building",
      profile: "semantic",
      cue: "A long run for the dashboard's rendering test.",
    });
    const events = longRunEvents(n);
    for (let i = 0; i < events.length; i += 1000) {
      await store.appendRunEvents(
        events
          .slice(i, i + 1000)
          .map((data, j) => ({ runId, companyId: company.id, seq: i + j, type: data.type, data })),
      );
    }
    await store.finishRun(runId, {
      status: "done",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      error: null,
    });
    return { companyId: company.id, runId };
  } finally {
    await store.close();
  }
}
