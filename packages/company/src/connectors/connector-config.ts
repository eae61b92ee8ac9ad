// A connector's configuration: one schema for the CLI (`cadre connectors add` builds this body from
// its flags), the API (the POST body) and the dashboard (its form posts it), and the checks no
// JSON Schema keyword can say — no credential at any depth, bounded depth and size — run before the
// schema, iteratively, so a hostile body gets a 400 naming the field instead of a stack overflow.
import { PI_CODING_TOOLS } from "@cadre/core";
import { OneOf, parse, type Problems, type Static, Text } from "@cadre/model";
import { type TSchema, Type } from "typebox";
import { secretKeyProblem, secretValueProblem } from "./credential-shapes.js";

/** Nesting below `config` (config.a.b is depth 2) and the JSON size of the whole config. */
export const MAX_CONFIG_DEPTH = 8;
export const MAX_CONFIG_BYTES = 16 * 1024;

const RESERVED_KEYS = ["__proto__", "constructor", "prototype"];

export const EnvVarName = Text({
  maxLength: 128,
  pattern: {
    source: "^[A-Za-z_][A-Za-z0-9_]*$",
    hint: "the name of an environment variable (letters, digits and _, not starting with a digit), e.g. OPENAI_API_KEY",
  },
  description: "The name of the environment variable that holds the API key (never the key itself).",
});

export const BaseUrl = Text({
  maxLength: 2048,
  pattern: {
    source: "^https?://[^\\s/?#@]+(/[^\\s?#]*)?$",
    hint: "an http(s) URL with no credentials, query or fragment, e.g. http://127.0.0.1:11434/v1",
  },
  description:
    "The endpoint: an OpenAI-compatible server's /v1 URL (Ollama http://127.0.0.1:11434/v1), a Codex model provider's base_url (Responses wire), or a gateway in front of the Anthropic (without /v1) or OpenAI (with /v1) API.",
});

/** A model the endpoint serves, declared with its context window (MC-6: explicit, windowed). */
export const ModelDeclaration = Type.Object(
  {
    id: Text({
      maxLength: 128,
      description:
        "The exact id the endpoint serves, naming its size: qwen2.5:14b-instruct-q4_K_M, llama-3.1-8b-instruct. Floating tags (latest, a bare family name such as llama3) are refused.",
    }),
    contextWindow: Type.Integer({
      minimum: 1024,
      maximum: 10_000_000,
      description: "The context window the server runs it with, in tokens (e.g. Ollama's num_ctx).",
    }),
    maxOutput: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: "Output tokens per call; default a quarter of the window, at most 8192.",
      }),
    ),
  },
  { additionalProperties: false },
);
export type ModelDeclarationInput = Static<typeof ModelDeclaration>;

// The session settings a connector may carry, with the rules the harness applies when a wake
// starts a session (kinds/session-input.ts reads them through the same schemas): checked when the
// connector is added, so a value no wake could run with is refused at the door, not at every wake.

/** Compaction starts at this share of the context window (MC-8); the harnesses take (0, 1]. */
export const CompactThreshold = Type.Refine(
  Type.Number({
    maximum: 1,
    description:
      "Compaction starts at this fraction of the context window: more than 0, at most 1 (default 0.9).",
  }),
  (v: number) => Number.isFinite(v) && v > 0 && v <= 1,
  (v: number) => `must be a fraction more than 0 and at most 1, e.g. 0.9, got ${v}`,
);

/** The longest a timer can wait in Node (setTimeout's limit): a longer timeout would fire at once. */
export const MAX_PROMPT_TIMEOUT_MS = 2_147_483_647;

/** How long one model turn may take before the session gives up on it (MC-11; default 10 minutes). */
export const PromptTimeoutMs = Type.Integer({
  minimum: 1,
  maximum: MAX_PROMPT_TIMEOUT_MS,
  description: "Milliseconds one model turn may take (Pi-run connectors; default 600000, 10 minutes).",
});

/** Pi's coding tools the connector grants its agents (none unless listed). */
export const PiTools = Type.Array(OneOf(PI_CODING_TOOLS), {
  maxItems: PI_CODING_TOOLS.length,
  description: `Pi's coding tools granted to the connector's agents: any of ${PI_CODING_TOOLS.join(", ")}.`,
});

/** A setting's value checked against its rule: the value, or the reason it cannot be used. */
export function checkSetting<S extends TSchema>(
  schema: S,
  value: unknown,
): { ok: true; value: Static<S> } | { ok: false; why: string } {
  const parsed = parse(schema, value);
  if (parsed.ok) return { ok: true, value: parsed.value };
  return { ok: false, why: Object.values(parsed.problems).join("; ") };
}

/**
 * The settings Cadre reads (typed) plus the harness policies and other settings (checked by their
 * own parsers); never a secret. The credential and size rules are `configProblems`.
 */
export const ConnectorConfig = Type.Object(
  {
    baseUrl: Type.Optional(BaseUrl),
    apiKeyEnv: Type.Optional(EnvVarName),
    models: Type.Optional(
      Type.Array(ModelDeclaration, {
        maxItems: 20,
        description:
          "Models the endpoint serves, each with its context window (openai-compatible, and codex with a baseUrl).",
      }),
    ),
    executablePath: Type.Optional(
      Text({ maxLength: 4096, description: "claude-code / codex: the executable to start." }),
    ),
    compactThreshold: Type.Optional(CompactThreshold),
    promptTimeoutMs: Type.Optional(PromptTimeoutMs),
    piTools: Type.Optional(PiTools),
  },
  {
    additionalProperties: true,
    maxProperties: 32,
    description: `Non-secret configuration: baseUrl, apiKeyEnv (the name of the variable holding the key), models [{ id, contextWindow }], executablePath, harness policies, compactThreshold, promptTimeoutMs. Nothing that looks like a credential, at any depth; at most ${MAX_CONFIG_DEPTH} levels deep and ${MAX_CONFIG_BYTES} bytes of JSON.`,
  },
);
export type ConnectorConfigInput = Static<typeof ConnectorConfig>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const at = (path: string, key: string | number) =>
  typeof key === "number" ? `${path}[${key}]` : `${path}.${key}`;

export const SECRET_ADVICE =
  "secrets are never stored: put the key in the server's environment and reference it by environment-variable name (apiKeyEnv)";

/**
 * Every credential-looking key or value (at any depth), every reserved key, and a config nested too
 * deep or too large, each under its path (`config.auth.apiKey`). Walks iteratively and never below
 * the depth limit, so no input can exhaust the stack. Empty when the config may be stored.
 */
export function configProblems(config: unknown, base = "config"): Problems {
  const problems: Problems = {};
  if (config === undefined) return problems;
  const stack: Array<{ value: unknown; path: string; depth: number }> = [
    { value: config, path: base, depth: 0 },
  ];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === "string") {
      const why = secretValueProblem(value);
      if (why) problems[path] = `looks like a credential (${why}); ${SECRET_ADVICE}`;
      continue;
    }
    if (typeof value !== "object" || value === null) continue;
    if (depth >= MAX_CONFIG_DEPTH) {
      problems[path] =
        `is nested deeper than ${MAX_CONFIG_DEPTH} levels below config; connector config is a small set of settings`;
      continue;
    }
    const entries: Array<[string | number, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [i, v])
      : Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]]);
    for (const [key, child] of entries.reverse()) {
      const childPath = at(path, key);
      if (typeof key === "string") {
        if (RESERVED_KEYS.includes(key)) {
          problems[childPath] = `is a reserved key; not allowed: ${RESERVED_KEYS.join(", ")}`;
          continue;
        }
        const why = secretKeyProblem(key, child);
        if (why) {
          problems[childPath] = `looks like a credential (${why}); ${SECRET_ADVICE}`;
          continue;
        }
      }
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  if (Object.keys(problems).length === 0 && isObject(config)) {
    const bytes = Buffer.byteLength(JSON.stringify(config), "utf8");
    if (bytes > MAX_CONFIG_BYTES)
      problems[base] =
        `is ${bytes} bytes of JSON; at most ${MAX_CONFIG_BYTES} (connector config is a small set of settings)`;
  }
  return sortedByPath(problems);
}

function sortedByPath(problems: Problems): Problems {
  return Object.fromEntries(Object.entries(problems).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The config as a reader may see it: anything that looks like a credential reads [redacted] (none is
 * stored since they are refused, but a store written by an older build may hold one), and anything
 * nested deeper than the limit reads [too deep].
 */
export function redactConfig(config: Record<string, unknown>): Record<string, unknown> {
  const copy = (value: unknown, depth: number): unknown => {
    if (typeof value === "string") return secretValueProblem(value) ? "[redacted]" : value;
    if (typeof value !== "object" || value === null) return value;
    if (depth >= MAX_CONFIG_DEPTH) return "[too deep]";
    if (Array.isArray(value)) return value.map((v) => copy(v, depth + 1));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      Object.defineProperty(out, key, {
        value: secretKeyProblem(key, child) ? "[redacted]" : copy(child, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  return copy(config, 0) as Record<string, unknown>;
}
