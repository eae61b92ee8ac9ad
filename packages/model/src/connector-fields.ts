// From the fields an operator fills in — `cadre connectors add`'s flags, the dashboard's form — to
// the one body POST /api/companies/{id}/connectors takes (the company layer's addConnectorSchema
// then checks it, the same for every path). The shorthands: a base URL, the models with one
// context window (declared as config.models [{ id, contextWindow }]), the key's variable name
// (config.apiKeyEnv), an executable, and any further config as JSON. Pure: it runs in the browser.

export interface ConnectorFields {
  id?: string | undefined;
  kind?: string | undefined;
  baseUrl?: string | undefined;
  /** Comma-separated model ids. */
  models?: string | undefined;
  /** Tokens; declares each of `models` with this window. */
  contextWindow?: string | undefined;
  apiKeyEnv?: string | undefined;
  executable?: string | undefined;
  /** A JSON object of further configuration. */
  config?: string | undefined;
}

/** What each field is called where it was typed (a flag, a form label), for the messages. */
export type FieldNames = Record<Exclude<keyof ConnectorFields, "id">, string>;

export const FLAG_NAMES: FieldNames = {
  kind: "--kind",
  baseUrl: "--base-url",
  models: "--models",
  contextWindow: "--context-window",
  apiKeyEnv: "--api-key-env",
  executable: "--executable",
  config: "--config",
};

export interface ConnectorBody {
  id?: string;
  kind: string;
  enabledModels?: string[];
  config?: Record<string, unknown>;
}

export type ConnectorBodyResult =
  { ok: true; body: ConnectorBody } | { ok: false; field: keyof ConnectorFields; message: string };

const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== "";

export function connectorBody(fields: ConnectorFields, names: FieldNames = FLAG_NAMES): ConnectorBodyResult {
  const fail = (field: keyof ConnectorFields, message: string): ConnectorBodyResult => ({
    ok: false,
    field,
    message,
  });
  if (!present(fields.kind)) return fail("kind", `${names.kind} is required`);
  let config: Record<string, unknown> = {};
  if (present(fields.config)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(fields.config);
    } catch (error) {
      return fail("config", `${names.config} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
      return fail("config", `${names.config} must be a JSON object, e.g. {"compactThreshold":0.8}`);
    config = parsed as Record<string, unknown>;
  }
  const conflicts: Array<keyof FieldNames> = [];
  const set = (field: keyof FieldNames, key: string, value: unknown) => {
    if (key in config && JSON.stringify(config[key]) !== JSON.stringify(value)) conflicts.push(field);
    config[key] = value;
  };
  if (present(fields.baseUrl)) set("baseUrl", "baseUrl", fields.baseUrl.trim());
  if (present(fields.apiKeyEnv)) set("apiKeyEnv", "apiKeyEnv", fields.apiKeyEnv.trim());
  if (present(fields.executable)) set("executable", "executablePath", fields.executable.trim());
  const models = present(fields.models)
    ? fields.models
        .split(",")
        .map((m) => m.trim())
        .filter((m) => m.length > 0)
    : undefined;
  if (fields.models !== undefined && present(fields.models) && models?.length === 0)
    return fail("models", `${names.models} needs at least one model id (comma-separated)`);
  if (present(fields.contextWindow)) {
    const window = fields.contextWindow.trim();
    if (!/^\d{1,9}$/.test(window))
      return fail(
        "contextWindow",
        `${names.contextWindow} must be a whole number of tokens (got "${window}")`,
      );
    if (!models)
      return fail(
        "contextWindow",
        `${names.contextWindow} declares the models of ${names.models}; give ${names.models} too`,
      );
    set(
      "contextWindow",
      "models",
      models.map((id) => ({ id, contextWindow: Number(window) })),
    );
  }
  const [conflict] = conflicts;
  if (conflict)
    return fail(
      conflict,
      `${names[conflict as keyof FieldNames]} and ${names.config}'s value disagree; give it once`,
    );
  return {
    ok: true,
    body: {
      ...(present(fields.id) ? { id: fields.id.trim() } : {}),
      kind: fields.kind.trim(),
      ...(models ? { enabledModels: models } : {}),
      ...(Object.keys(config).length > 0 ? { config } : {}),
    },
  };
}
