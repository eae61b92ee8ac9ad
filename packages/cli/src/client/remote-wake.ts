// `cadre wake AGENT_ID --server URL`: the server runs the wake; the CLI follows the run's stored
// events (polling GET /api/runs/{id}/events) and renders them as the local command does.
import { usageOfCounters, usageSummaryJson, WAKE_TRIGGERS } from "@cadre/model";
import type { AgentEvent } from "@cadre/core";
import type { AgentView, RunEventView, RunView } from "@cadre/server";
import { parse } from "../args.js";
import { type CliIO, UsageError } from "../io.js";
import { createRenderer } from "../render.js";
import type { ApiClient } from "./api-client.js";

const POLL_MS = 150;

interface Started {
  /** Null when the server queued the wake and no worker started its run within the server's wait. */
  runId: string | null;
  wakeId?: string | null;
  status?: "started" | "queued";
  profile: string;
  trigger: string;
  mode: string;
  cue: string;
  cueTokens: number;
}

export async function remoteWake(api: ApiClient, args: string[], io: CliIO): Promise<number> {
  const options = {
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    trigger: { type: "string" },
    seed: { type: "string" },
    profile: { type: "string" },
  } as const;
  const { values, positionals } = parse("wake", args, options, 1);
  const agentId = positionals[0];
  if (!agentId) throw new UsageError("wake: AGENT_ID is required (see `cadre agents list`)");
  if (values.trigger && !(WAKE_TRIGGERS as readonly string[]).includes(values.trigger))
    throw new UsageError(`wake: --trigger must be one of ${WAKE_TRIGGERS.join(", ")}`);
  if (values.seed !== undefined && !/^\d{1,9}$/.test(values.seed))
    throw new UsageError("wake: --seed must be a whole number");
  if (values.profile !== undefined && values.profile !== "legacy" && values.profile !== "semantic")
    throw new UsageError("wake: --profile must be legacy or semantic");
  const agent = await api.get<AgentView>(`/api/agents/${encodeURIComponent(agentId)}`);
  const started = await api.post<Started>(`/api/agents/${encodeURIComponent(agentId)}/wake`, {
    ...(values.trigger ? { trigger: values.trigger } : {}),
    ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
    ...(values.profile ? { profile: values.profile } : {}),
  });
  if (started.runId === null) {
    // Nothing to follow yet: the wake waits in the queue for a worker (PostgreSQL installations).
    io.out(
      `wake ${started.wakeId ?? "?"} queued: no worker has started it yet; its run appears in the dashboard and \`cadre agents list\` once one does (start one with \`cadre worker\`)\n`,
    );
    if (values.json)
      io.out(`${JSON.stringify({ wakeId: started.wakeId ?? null, agentId, status: "queued" })}\n`);
    return 0;
  }
  const runId = started.runId;
  io.out(
    `run ${runId} — mode ${started.mode}, trigger ${started.trigger}, profile ${started.profile}\ncue "${started.cue}" (${started.cueTokens} tokens)\n`,
  );
  const render = createRenderer(io.out, agent.name);
  let after: number | undefined;
  let run: RunView;
  for (;;) {
    const page = await api.get<{ run: RunView; events: RunEventView[] }>(
      `/api/runs/${runId}/events${after !== undefined ? `?after=${after}` : ""}`,
    );
    for (const e of page.events) {
      render(e.data as AgentEvent);
      after = e.id;
    }
    // The run row was read before the events: once it says finished, these were the last ones.
    if (page.run.status !== "running") {
      run = page.run;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const modeAfter = (await api.get<{ ceoMode: string }>(`/api/companies/${run.companyId}`)).ceoMode;
  io.out(`mode: ${started.mode} → ${modeAfter}\n`);
  if (values.json) {
    const usage = usageSummaryJson(usageOfCounters(run.usage));
    io.out(
      `${JSON.stringify({ runId: run.id, agentId, terminal: run.status, modeBefore: started.mode, modeAfter, initialCue: { text: started.cue, tokens: started.cueTokens }, usage })}\n`,
    );
  }
  return run.status === "done" ? 0 : 1;
}
