// `cadre connectors test` / POST …/connectors/{id}/test: one minimal real request, so the operator
// knows the model answers before an agent depends on it. A network connector gets one model call
// asking for a token or so, on its own wire (Anthropic Messages, OpenAI Chat Completions, OpenAI
// Responses for Codex with a baseUrl); a harness starts its executable (`--version`); the offline
// connector has nothing to reach. The answer is `{ ok, model, latencyMs, error? }` and never holds a
// secret: error texts are scrubbed of the key and of anything shaped like a credential.
import type { ConnectorRow } from "@cadre/store";
import { scrubSecrets } from "./credential-shapes.js";
import { driverOf, type TestAttempt } from "./kinds/index.js";
import { keyEnvOf } from "./readiness.js";
import { endpointHeaders, endpointOf, errorExtract, networkReason, wireOf } from "./probe-specs.js";

export interface ConnectorTestResult {
  ok: boolean;
  connectorId: string;
  kind: ConnectorRow["kind"];
  /** The model the request named. */
  model: string;
  /** From sending the request to the end of the answer, in milliseconds. */
  latencyMs: number;
  /** What was asked: the URL, or the executable started (never a secret). */
  target: string;
  checkedAt: string;
  /** What failed, when it did. */
  error?: string;
  /** What it answered (a model's first words, a harness's version), when it did. */
  answer?: string;
  /** Whether the endpoint answered at all (a 4xx from it is an answer: the model may still be wrong). */
  answered: boolean;
}

type Attempt = TestAttempt;

const PROMPT = "Reply with the single word: ready";

function requestOf(
  kind: ConnectorRow["kind"],
  endpoint: string,
  model: string,
): { url: string; body: Record<string, unknown> } {
  const driver = driverOf(kind);
  switch (driver.wire) {
    case "anthropic":
      return {
        url: `${endpoint}/v1/messages`,
        body: { model, max_tokens: 8, messages: [{ role: "user", content: PROMPT }] },
      };
    case "openai-responses":
      return { url: `${endpoint}/responses`, body: { model, input: PROMPT, max_output_tokens: 16 } };
    default:
      // OpenAI's own API takes max_completion_tokens (its reasoning models refuse max_tokens);
      // OpenAI-compatible servers (Ollama, vLLM, llama.cpp) take max_tokens.
      return {
        url: `${endpoint}/chat/completions`,
        body: {
          model,
          messages: [{ role: "user", content: PROMPT }],
          ...(driver.chatTokenLimit === "max_completion_tokens"
            ? { max_completion_tokens: 16 }
            : { max_tokens: 8 }),
          stream: false,
        },
      };
  }
}

/** The answer's first words, from any of the three wires' non-streamed bodies. */
function answerText(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as {
      content?: Array<{ text?: unknown }>;
      choices?: Array<{ message?: { content?: unknown } }>;
      output_text?: unknown;
      output?: Array<{ content?: Array<{ text?: unknown }> }>;
    };
    const text =
      parsed.content?.find((b) => typeof b.text === "string")?.text ??
      parsed.choices?.[0]?.message?.content ??
      parsed.output_text ??
      parsed.output?.flatMap((o) => o.content ?? []).find((b) => typeof b.text === "string")?.text;
    return typeof text === "string" ? text.trim().slice(0, 80) : undefined;
  } catch {
    return undefined;
  }
}

async function askModel(
  connector: Pick<ConnectorRow, "kind" | "config">,
  model: string,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal,
): Promise<Attempt> {
  const endpoint = endpointOf(connector) as string;
  const keyEnv = keyEnvOf(connector);
  const key = keyEnv ? env[keyEnv] : undefined;
  const { url, body } = requestOf(connector.kind, endpoint, model);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...endpointHeaders(wireOf(connector.kind), key) },
      body: JSON.stringify(body),
      signal,
      redirect: "manual",
    });
  } catch (error) {
    return { ok: false, answered: false, target: url, error: `POST ${url}: ${networkReason(error)}` };
  }
  const text = await response.text().catch(() => "");
  if (response.ok) {
    const answer = answerText(text);
    return {
      ok: true,
      answered: true,
      target: url,
      ...(answer ? { answer: scrubSecrets(answer, key ? [key] : []) } : {}),
    };
  }
  const extract = errorExtract(text, key);
  const refused = response.status === 401 || response.status === 403;
  return {
    ok: false,
    answered: !refused,
    target: url,
    error: `POST ${url} answered ${response.status}${extract ? `: ${extract}` : ""}${refused && keyEnv ? ` (the key in ${keyEnv} was refused)` : ""}`,
  };
}

/** Runs the connector's one minimal real request; never throws for what the connector answers. */
export async function runConnectorTest(
  connector: ConnectorRow,
  model: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<ConnectorTestResult> {
  const checkedAt = new Date().toISOString();
  const started = performance.now();
  let attempt: Attempt;
  const { localTest } = driverOf(connector.kind);
  if (endpointOf(connector) !== undefined) {
    const signal = AbortSignal.timeout(timeoutMs);
    attempt = await askModel(connector, model, env, signal).catch((error: unknown) => ({
      ok: false,
      answered: false,
      target: endpointOf(connector) as string,
      error: signal.aborted ? `no answer within ${timeoutMs / 1000} s` : networkReason(error),
    }));
    if (!attempt.ok && signal.aborted)
      attempt.error = `${attempt.target}: no answer within ${timeoutMs / 1000} s`;
  } else if (localTest) {
    attempt = await localTest(connector, env, timeoutMs);
  } else {
    attempt = {
      ok: false,
      answered: false,
      target: "nothing",
      error: `a ${connector.kind} connector has nothing to test`,
    };
  }
  return {
    ok: attempt.ok,
    connectorId: connector.id,
    kind: connector.kind,
    model,
    latencyMs: Math.round(performance.now() - started),
    target: attempt.target,
    checkedAt,
    answered: attempt.answered,
    ...(attempt.error !== undefined ? { error: attempt.error } : {}),
    ...(attempt.answer !== undefined ? { answer: attempt.answer } : {}),
  };
}
