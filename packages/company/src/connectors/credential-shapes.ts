// What looks like a credential, by the key that holds it and by the value's shape. Connector config
// never stores one: a key is referenced by the name of the environment variable that
// holds it (`apiKeyEnv`). The same rules redact what an older store may still hold, and scrub an
// endpoint's error text before Cadre prints it.
import { Redactor } from "@cadre/core";

/** Words of a key name: `apiKey`, `api_key`, `API-KEY` and `x-api-key` all read as ["api", "key"]. */
function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** One word that names a secret wherever it appears in a key. */
const SECRET_WORDS = new Set([
  "secret",
  "secrets",
  "password",
  "passwd",
  "passphrase",
  "pwd",
  "bearer",
  "authorization",
  "credential",
  "credentials",
  "cookie",
  "apikey",
  "privatekey",
]);
/** Word pairs that name a secret: api key, access key, private key, … */
const SECRET_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["api", "key"],
  ["access", "key"],
  ["private", "key"],
  ["secret", "key"],
  ["session", "key"],
  ["signing", "key"],
  ["client", "secret"],
  ["auth", "header"],
];

/** Words that name a secret when they end the key: `accessToken`, `token`, not `tokenLimit`. */
const SECRET_LAST_WORDS = new Set(["token"]);

/**
 * Why a config key looks like it holds a secret, or undefined. A key ending in `Env` names the
 * environment variable that holds one (`apiKeyEnv`, `tokenEnv`) and is allowed; `maxTokens` and
 * `tokenLimit` count tokens and are not secrets.
 */
export function secretKeyProblem(key: string, value: unknown): string | undefined {
  const w = words(key);
  if (w.length === 0) return undefined;
  if (w[w.length - 1] === "env") return undefined;
  const named =
    w.some((x) => SECRET_WORDS.has(x)) ||
    SECRET_LAST_WORDS.has(w[w.length - 1] as string) ||
    SECRET_PAIRS.some(([a, b]) => w.some((x, i) => x === a && w[i + 1] === b)) ||
    (w.length === 1 && (w[0] === "key" || w[0] === "auth") && typeof value === "string");
  return named ? `the key "${key}" names a credential` : undefined;
}

const VALUE_SHAPES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bsk-(?:ant-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/, "an API key (sk-…)"],
  [/^\s*(?:bearer|basic|token)\s+\S{8,}/i, "an Authorization header value"],
  [/\bcadre_(?:op|agt)_[A-Za-z0-9_-]{16,}/, "a Cadre API token"],
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/, "a GitHub token"],
  [/\bglpat-[A-Za-z0-9_-]{20,}/, "a GitLab token"],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/\bhf_[A-Za-z0-9]{30,}/, "a Hugging Face token"],
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key id"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, "a Google API key"],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/, "a signed token (JWT)"],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, "a private key"],
];

/** Credentials inside a URL: `https://user:pass@host`, a token as the user, or `?api_key=…`. */
const URL_USERINFO = /\b[a-z][a-z0-9+.-]*:\/\/[^/?#\s@]+@/i;
const URL_SECRET_QUERY =
  /[?&](?:api[_-]?key|key|access[_-]?token|token|auth|password|secret|client[_-]?secret|sig|signature)=[^&#\s]+/i;

/** Why a string value looks like a credential itself, or undefined. */
export function secretValueProblem(value: string): string | undefined {
  for (const [pattern, what] of VALUE_SHAPES) if (pattern.test(value)) return `the value looks like ${what}`;
  if (URL_USERINFO.test(value)) return "the URL carries credentials (user:password@)";
  if (URL_SECRET_QUERY.test(value)) return "the URL carries a credential in its query";
  return undefined;
}

const SCRUB: RegExp[] = [
  ...VALUE_SHAPES.map(([p]) => new RegExp(p.source.replace(/^\^\\s\*/, ""), `${p.flags}g`)),
  /(\b[a-z][a-z0-9+.-]*:\/\/)[^/?#\s@]+@/gi,
];

/**
 * `text` with anything shaped like a credential, and the given secret values in every form a
 * provider quotes them in (raw, URL-encoded, base64: core's Redactor), replaced by [redacted].
 */
export function scrubSecrets(text: string, secrets: readonly string[] = []): string {
  let out = secrets.length > 0 ? Redactor.of(secrets).text(text) : text;
  for (const pattern of SCRUB)
    out = out.replace(pattern, (match, scheme?: string) =>
      typeof scheme === "string" && match.startsWith(scheme) ? `${scheme}[redacted]@` : "[redacted]",
    );
  return out;
}
