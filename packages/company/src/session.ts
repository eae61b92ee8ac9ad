// Builds the core session for an agent: picks the harness and the model route from its connector.
// The one place where a connector becomes a running agent (MC-1: the loop itself lives in core).
import { type BaseAgent, createScriptedStreamFn, PiAgent, resolveModel, type Script, type SessionConfig, type ToolDefinition, UserInputError } from "@cadre/core";
import type { AgentRow, ConnectorRow } from "@cadre/store";
import { keyEnvOf, readiness } from "./connectors.js";
import { offlineCeoScript, offlineMemberScript } from "./offline/ceo-script.js";

export interface SessionInput {
  sessionId: string;
  agent: AgentRow;
  connector: ConnectorRow;
  systemPrompt: string;
  tools: ToolDefinition[];
  /** Seed of the offline model's variation. */
  seed: number | string;
  /** Replaces the offline script (tests, fault rehearsal). */
  script?: Script;
  env?: NodeJS.ProcessEnv;
}

export function createSession(input: SessionInput): BaseAgent {
  const env = input.env ?? process.env;
  const state = readiness(input.connector, env);
  if (!state.ready) throw new UserInputError(`connector "${input.connector.id}" of agent ${input.agent.name} is not ready: ${state.missing}`);
  const config: SessionConfig = { sessionId: input.sessionId, systemPrompt: input.systemPrompt, model: resolveModel(input.agent.model), tools: input.tools };
  switch (input.connector.kind) {
    case "offline": {
      const script = input.script ?? (input.agent.isCeo ? offlineCeoScript : offlineMemberScript);
      return new PiAgent(config, { streamFn: createScriptedStreamFn({ script, seed: input.seed }) });
    }
    case "anthropic":
    case "openai": {
      const keyEnv = keyEnvOf(input.connector);
      return new PiAgent(config, { getApiKey: () => (keyEnv ? env[keyEnv] : undefined) });
    }
    case "openai-compatible": {
      const keyEnv = keyEnvOf(input.connector);
      const baseUrl = String(input.connector.config["baseUrl"]);
      // Local servers usually need no key; pi-ai's OpenAI client still wants a non-empty one.
      return new PiAgent(config, { route: { baseUrl }, getApiKey: () => (keyEnv && env[keyEnv]) || "not-needed" });
    }
    default:
      throw new UserInputError(`connector kind "${input.connector.kind}" has no harness in this build`);
  }
}
