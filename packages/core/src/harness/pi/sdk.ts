// The Pi coding agent's SDK (`@mariozechner/pi-coding-agent`), opened hermetically for one Cadre
// session: in-memory auth, model registry and settings (nothing under ~/.pi is read or written), an
// in-memory resource loader (no extensions, skills, prompt templates, themes or AGENTS.md from disk),
// a session manager rooted in Cadre's own data directory, and the provider boundary registered in
// pi-ai's API registry under an api id of this session's own, so the agent loop's calls and Pi's own
// compaction-summary calls both reach Cadre's stream function. Loaded on first use: the SDK takes
// most of a second to import, and most users of @cadre/core never open a Pi session.
import type { AgentTool } from "@mariozechner/pi-agent-core";
import {
  type Api,
  type ApiStreamSimpleFunction,
  type Model,
  registerApiProvider,
  unregisterApiProviders,
} from "@mariozechner/pi-ai";
import type {
  AgentSession,
  Extension,
  ResourceLoader,
  SessionManager,
  ToolDefinition as PiToolDefinition,
} from "@mariozechner/pi-coding-agent";

export type PiSdk = typeof import("@mariozechner/pi-coding-agent");

let loading: Promise<PiSdk> | undefined;

export function loadPiSdk(): Promise<PiSdk> {
  loading ??= import("@mariozechner/pi-coding-agent");
  return loading;
}

export { PI_CODING_TOOLS, type PiCodingTool } from "./constants.js";

/** Pi's compaction.keepRecentTokens default (pi-coding-agent DEFAULT_COMPACTION_SETTINGS). */
const PI_KEEP_RECENT_TOKENS = 20_000;

/** What Pi keeps verbatim after a compaction: its default, or 15% of a small window. */
export function keepRecentTokensFor(contextWindow: number): number {
  return Math.max(1, Math.min(PI_KEEP_RECENT_TOKENS, Math.floor(contextWindow * 0.15)));
}

let registrations = 0;

/**
 * A per-session api id in pi-ai's process-global provider registry. Two sessions registering one id
 * would answer each other's calls, so every session gets its own, and removes it when it closes
 * (by its own source id: ModelRegistry.unregisterProvider would reset every registration in the process).
 */
export function registerSessionProvider(streamSimple: ApiStreamSimpleFunction): {
  api: Api;
  unregister: () => void;
} {
  const n = ++registrations;
  const api = `cadre-session-${process.pid}-${n}` as Api;
  const sourceId = `cadre:${api}`;
  registerApiProvider({ api, stream: streamSimple, streamSimple }, sourceId);
  return { api, unregister: () => unregisterApiProviders(sourceId) };
}

/** An extension object as Pi's loader builds one, carrying handlers only (Extension is a public type). */
function inlineExtension(sdk: PiSdk, handlers: Record<string, (...args: any[]) => unknown>): Extension {
  const path = "<cadre>";
  return {
    path,
    resolvedPath: path,
    sourceInfo: sdk.createSyntheticSourceInfo(path, { source: "sdk" }),
    handlers: new Map(Object.entries(handlers).map(([event, fn]) => [event, [fn]])),
    tools: new Map(),
    messageRenderers: new Map(),
    commands: new Map(),
    flags: new Map(),
    shortcuts: new Map(),
  } as Extension;
}

/**
 * Nothing from disk: Pi's own preset, skills, templates, themes, context files and extensions stay
 * out. The system prompt Pi builds always appends the date and the working directory, so the
 * exact text is set through the `before_agent_start` hook, which Pi applies to every call of the
 * run (its own auto-retry and overflow continue included).
 */
function memoryResourceLoader(sdk: PiSdk, systemPrompt: string): ResourceLoader {
  const extensions = {
    extensions: [inlineExtension(sdk, { before_agent_start: () => ({ systemPrompt }) })],
    errors: [],
    runtime: sdk.createExtensionRuntime(),
  };
  return {
    getExtensions: () => extensions,
    getSkills: () => ({ skills: [], diagnostics: [] }),
    getPrompts: () => ({ prompts: [], diagnostics: [] }),
    getThemes: () => ({ themes: [], diagnostics: [] }),
    getAgentsFiles: () => ({ agentsFiles: [] }),
    getSystemPrompt: () => systemPrompt,
    getAppendSystemPrompt: () => [],
    extendResources: () => undefined,
    reload: async () => undefined,
  };
}

export interface PiSessionSetup {
  cwd: string;
  sessionManager: SessionManager;
  /** The model with the session's own api id (the provider boundary maps it back to the real one). */
  model: Model<any>;
  apiKey: string;
  systemPrompt: string;
  customTools: readonly AgentTool[];
  /** Pi's own file tools confined to the workspace (workspace-tools.ts), in place of its built-ins. */
  fileTools?: readonly PiToolDefinition[];
  /** Every tool name the model may see: Cadre's tools, then any coding tools the policy grants. */
  toolNames: readonly string[];
  /** MC-8: frozen by the host at each start/resume; Pi compacts at contextWindow − reserveTokens. */
  reserveTokens: number;
  keepRecentTokens: number;
}

export interface OpenedPiSession {
  session: AgentSession;
  /** Sets the provider's key before each send: keys are read at call time, never stored. */
  setApiKey(provider: string, key: string): void;
}

export async function createPiSession(sdk: PiSdk, setup: PiSessionSetup): Promise<OpenedPiSession> {
  const authStorage = sdk.AuthStorage.inMemory();
  // A runtime key is used as a literal (a stored one may be run as a shell command or read as an
  // environment variable name), and it keeps Pi from falling back to the environment's keys.
  authStorage.setRuntimeApiKey(setup.model.provider, setup.apiKey);
  const modelRegistry = sdk.ModelRegistry.inMemory(authStorage);
  const settingsManager = sdk.SettingsManager.inMemory({
    // MC-8: native auto-compaction stays on, with the reserve the host froze.
    compaction: {
      enabled: true,
      reserveTokens: setup.reserveTokens,
      keepRecentTokens: setup.keepRecentTokens,
    },
    // MC-10/MC-11: only an explicit overflow may be replayed, once, and the host's gate decides;
    // Pi's own retry of overloaded/timed-out calls would replay everything else.
    retry: { enabled: false },
    enableInstallTelemetry: false,
  });
  const { session } = await sdk.createAgentSession({
    cwd: setup.cwd,
    agentDir: setup.cwd,
    authStorage,
    modelRegistry,
    settingsManager,
    resourceLoader: memoryResourceLoader(sdk, setup.systemPrompt),
    sessionManager: setup.sessionManager,
    model: setup.model,
    thinkingLevel: "off",
    tools: [...setup.toolNames],
    customTools: [...(setup.customTools as unknown as PiToolDefinition[]), ...(setup.fileTools ?? [])],
  });
  session.agent.toolExecution = "sequential";
  return { session, setApiKey: (provider, key) => authStorage.setRuntimeApiKey(provider, key) };
}
