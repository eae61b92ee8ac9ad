// Builds the core session for an agent: the one place where a connector becomes a running agent
// (MC-1: the loop itself lives in core). What every kind shares is prepared here — readiness, the
// model as the connector routes it, Pi's options, the wrappers around each model call — and the
// connector's driver (connectors/kinds/) makes the session.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { type BaseAgent, type SessionConfig, type StreamFn, UserInputError } from "@cadre/core";
import type { ConnectorRow } from "@cadre/store";
import { readiness } from "./connectors/readiness.js";
import { resolveConnectorModel } from "./connectors/connector-models.js";
import { driverOf, piRoutedKinds } from "./connectors/kinds/index.js";
import {
  compactThresholdOf,
  piToolsOf,
  promptTimeoutOf,
  type SessionInput,
} from "./connectors/kinds/session-input.js";
import { workspaceOf } from "./team/workspace.js";
import { piToolsFor } from "./team/tools-by-role.js";

export { type HarnessSessionCall, piToolsOf, type SessionInput } from "./connectors/kinds/session-input.js";

/** Harnesses that run their own loop call the model themselves: there is no model call to wrap. */
export function requireWrappable(connector: Pick<ConnectorRow, "id" | "kind">, agentName: string): void {
  if (driverOf(connector.kind).harness === "pi") return;
  throw new UserInputError(
    `cassettes record Pi-routed connectors only (${piRoutedKinds().join(", ")}); ${agentName} runs on "${connector.id}" (${connector.kind}), whose harness calls the model itself`,
  );
}

/** The agent's session on its connector; the harness is loaded on the first session that needs it. */
export async function createSession(given: SessionInput): Promise<BaseAgent> {
  const driver = driverOf(given.connector.kind);
  // Every harness works in the agent's workspace: made sure of here, before any session starts.
  const workspace =
    given.workspace ??
    workspaceOf({ dataDir: given.dataDir, companyId: given.agent.companyId, agentId: given.agent.id });
  mkdirSync(workspace, { recursive: true });
  const input: SessionInput = { ...given, workspace };
  if (input.wrapStreamFn && !input.wrapHarness) requireWrappable(input.connector, input.agent.name);
  const env = input.env ?? process.env;
  const state = readiness(input.connector, env, input.probes);
  if (!state.ready)
    throw new UserInputError(
      `connector "${input.connector.id}" of agent ${input.agent.name} is not ready: ${state.missing}`,
    );
  const config: SessionConfig = {
    sessionId: input.sessionId,
    systemPrompt: input.systemPrompt,
    // The model as its connector routes it: a registry id, or one the endpoint declares with its window.
    model: resolveConnectorModel(input.connector, input.agent.model),
    tools: input.tools,
    ...(input.redact ? { redact: input.redact } : {}),
  };
  const pi = {
    ...(input.segments ? { segments: input.segments } : {}),
    ...(input.onModelCall ? { onModelCall: input.onModelCall } : {}),
    ...compactThresholdOf(input.connector),
    ...promptTimeoutOf(input.connector),
    ...(input.continuation ?? {}),
    // Tools by role: a member's file tools rooted at its workspace, behind the guard; the CEO's none.
    // Pi's only: a Claude Code or Codex connector's shell is its own harness's, held by its sandbox.
    ...(driver.harness === "pi"
      ? piToolsFor(input.agent, input.connector, workspace, piToolsOf(input.connector).codingTools)
      : {}),
    cwd: workspace,
    // Pi's session files live with the agent (DATA_DIR/agents/AGENT_ID/sessions), out of the
    // workspace's reach; without a data directory (evals, tests) the session lives in memory.
    ...(input.dataDir !== undefined
      ? { sessionDir: join(input.dataDir, "agents", input.agent.id, "sessions") }
      : {}),
  };
  if (input.faults?.length && !driver.rehearsesFaults) {
    throw new UserInputError(
      `--faults rehearses failures on the offline connector only; ${input.agent.name} runs on "${input.connector.id}" (${input.connector.kind})`,
    );
  }
  const cassette = input.wrapStreamFn
    ? (inner: StreamFn) => input.wrapStreamFn!(inner, input.connector)
    : (inner: StreamFn) => inner;
  const guard = input.guardStreamFn ?? ((inner: StreamFn) => inner);
  return driver.createSession(input, { config, env, pi, wrap: (inner) => guard(cassette(inner)) });
}
