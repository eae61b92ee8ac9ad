// The legacy prompt profile (C4-7), assembled for one CEO wake: the old hard-coded initial turn and
// a real `bash` tool whose environment carries the API URL and a token minted for this run only
// (revoked when the run ends). The CEO then hires by HTTP against a running Cadre API, exactly as
// the old design told it to, and those records say `via: "http"`.
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ToolDefinition, UserInputError } from "@cadre/core";
import type { AgentRow, Store } from "@cadre/store";
import { processStart, thisProcess } from "../../recovery/processes.js";
import { mintAgentToken } from "../../agent-tokens.js";
import { bashTool, type BashToolOptions } from "./bash-tool.js";
import { legacyInitialTurn } from "./initial-turn.js";

/** Refuses, before anything is written, a legacy wake with no API to call. */
export function requireLegacyApi(agent: AgentRow, apiUrl: string | undefined): string {
  if (!agent.isCeo)
    throw new UserInputError(
      `the legacy profile exists for the CEO's wake only; ${agent.name} (${agent.id}) runs the semantic profile`,
    );
  if (apiUrl === undefined || !/^https?:\/\/[^\s/]+/.test(apiUrl)) {
    throw new UserInputError(
      "the legacy profile needs a running Cadre API: its CEO hires by running `node -e` fetch POSTs against it. " +
        "Wake through a server (`cadre serve`, then POST /api/agents/{id}/wake or `cadre wake --server URL`), or use --profile semantic.",
    );
  }
  return apiUrl.replace(/\/+$/, "");
}

export interface LegacyRunInput {
  store: Store;
  agent: AgentRow;
  runId: string;
  apiUrl: string;
  /** The run's working folder is created under DATA_DIR/runs/RUN_ID (a temp folder without one). */
  dataDir?: string;
  bash?: Pick<BashToolOptions, "timeoutMs" | "maxOutputBytes">;
}

export interface LegacyRun {
  cue: string;
  tools: ToolDefinition[];
  workDir: string;
  /** Revokes the run's token. */
  close(): Promise<void>;
}

export function legacyCue(apiUrl: string, companyId: string): string {
  return legacyInitialTurn({ apiUrl, companyId });
}

export async function prepareLegacyRun(input: LegacyRunInput): Promise<LegacyRun> {
  const { store, agent, runId, apiUrl } = input;
  const workDir = join(input.dataDir ?? join(tmpdir(), "cadre"), "runs", runId);
  await mkdir(workDir, { recursive: true });
  const { token, row } = await mintAgentToken(store, {
    agentId: agent.id,
    runId,
    label: `legacy run ${runId}`,
  });
  const env = {
    CADRE_API_URL: apiUrl,
    CADRE_AGENT_TOKEN: token,
    CADRE_COMPANY_ID: agent.companyId,
    CADRE_AGENT_ID: agent.id,
    CADRE_RUN_ID: runId,
  };
  // Each command's process group is recorded with the run while it runs: if this process dies,
  // whoever recovers the run kills what the command left running.
  const recordGroup = async (pid: number) => {
    await store.insertRunProcess({ runId, pid, host: thisProcess().host, started: processStart(pid) ?? "" });
  };
  const forgetGroup = async (pid: number) => {
    await store.deleteRunProcess(runId, pid);
  };
  return {
    cue: legacyCue(apiUrl, agent.companyId),
    tools: [bashTool({ cwd: workDir, env, ...input.bash, onSpawn: recordGroup, onExit: forgetGroup })],
    workDir,
    close: async () => {
      await store.revokeApiTokens({ id: row.id });
    },
  };
}
