// The Connectors tab: each connector with its readiness (what was checked, when, what failed), its
// model drifts (a model replaced under its id, another model served), its models and their
// windows, its secret-free config; a real test request and removal per connector;
// and a form that adds one. The form's fields become the API's body exactly as `cadre connectors
// add`'s flags do (@cadre/model connectorBody), and every refusal is the server's, naming its field.
import { useEffect, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { ApiError, type CallInput } from "../../api/client.js";
import type { Connector, ConnectorTest, ModelDrift } from "../../api/types.js";
import type { LiveCompany } from "../../hooks/use-company.js";
import { CONNECTOR_KINDS, connectorBody, type ConnectorFields, type FieldNames } from "@cadre/model";
import { useResource } from "../../hooks/use-resource.js";
import { ConnectorDrift, DriftBadge } from "./connector-drift.js";
import { Readiness, ReadinessBadge } from "./readiness.js";
import { notAllowed, useMe } from "../../session/permissions.js";
import { formatNumber } from "../../model/format.js";

const LABELS: FieldNames = {
  kind: "Kind",
  baseUrl: "Base URL",
  models: "Models",
  contextWindow: "Context window",
  apiKeyEnv: "API key variable",
  executable: "Executable",
  config: "More config (JSON)",
};

function explain(e: unknown): string {
  if (e instanceof ApiError && e.fields && Object.keys(e.fields).length > 0) return e.message;
  return e instanceof Error ? e.message : String(e);
}

function ConnectorItem({
  api,
  connector,
  drifts,
  policy,
  onChanged,
}: {
  api: Api;
  connector: Connector;
  drifts: readonly ModelDrift[];
  policy: "warn" | "refuse";
  onChanged(): void;
}) {
  const [busy, setBusy] = useState<"test" | "remove" | undefined>(undefined);
  const [test, setTest] = useState<ConnectorTest | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  // Testing and removing a connector is an owner's.
  const may = useMe().may.administer;
  const params = { id: connector.companyId, connectorId: connector.id };
  const run = async (what: "test" | "remove") => {
    setBusy(what);
    setError(undefined);
    try {
      if (what === "test")
        setTest(
          await api.call("POST /api/companies/{id}/connectors/{connectorId}/test", { params, body: {} }),
        );
      else await api.call("DELETE /api/companies/{id}/connectors/{connectorId}", { params });
      onChanged();
    } catch (e) {
      setError(explain(e));
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <li data-testid="connector" data-connector={connector.id}>
      <div class="connector-head">
        <div>
          <strong>{connector.id}</strong> <span class="muted">({connector.kind})</span>{" "}
          <ReadinessBadge connector={connector} /> <DriftBadge connector={connector} drifts={drifts} />
          <div class="muted">{connector.label}</div>
        </div>
        <div class="actions" hidden={!may}>
          <button type="button" disabled={busy !== undefined} onClick={() => void run("test")}>
            {busy === "test" ? "Testing…" : "Test"}
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy !== undefined}
            onClick={() => void run("remove")}
          >
            {busy === "remove" ? "Removing…" : "Remove"}
          </button>
        </div>
      </div>
      <Readiness connector={connector} />
      <ConnectorDrift connector={connector} drifts={drifts} policy={policy} />
      <div>
        Models:{" "}
        {connector.models
          .map(
            (m) => `${m.id}${m.contextWindow !== null ? ` (${formatNumber(m.contextWindow)} tokens)` : ""}`,
          )
          .join(", ") || "none"}
      </div>
      {Object.keys(connector.config).length > 0 && (
        <div class="muted config">
          Config: <code>{JSON.stringify(connector.config)}</code>
        </div>
      )}
      {test && (
        <p class={`alert ${test.ok ? "ok" : "error"}`} role="status" data-testid="test-result">
          {test.ok
            ? `Test ok: ${test.model} answered in ${test.latencyMs} ms${test.answer ? ` ("${test.answer}")` : ""}.`
            : `Test failed after ${test.latencyMs} ms: ${test.error ?? "no answer"}`}
        </p>
      )}
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
    </li>
  );
}

const EMPTY: Required<ConnectorFields> = {
  id: "",
  kind: "openai-compatible",
  baseUrl: "",
  models: "",
  contextWindow: "",
  apiKeyEnv: "",
  executable: "",
  config: "",
};

function AddConnector({ api, companyId, onAdded }: { api: Api; companyId: string; onAdded(): void }) {
  const [fields, setFields] = useState(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: string[] } | undefined>(undefined);
  const [added, setAdded] = useState<Connector | undefined>(undefined);
  const field = (key: keyof ConnectorFields, label: string, hint?: string) => (
    <>
      <label for={`connector-${key}`}>{label}</label>
      <input
        id={`connector-${key}`}
        value={fields[key]}
        placeholder={hint}
        aria-invalid={error?.fields.some((f) => f === key) ? "true" : undefined}
        onInput={(e) => setFields({ ...fields, [key]: e.currentTarget.value })}
      />
    </>
  );
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(undefined);
    setAdded(undefined);
    const built = connectorBody(fields, LABELS);
    if (!built.ok) return setError({ message: built.message, fields: [built.field] });
    setBusy(true);
    try {
      const connector = await api.call("POST /api/companies/{id}/connectors", {
        params: { id: companyId },
        body: built.body as CallInput<"POST /api/companies/{id}/connectors">["body"],
      });
      setAdded(connector);
      setFields(EMPTY);
      onAdded();
    } catch (err) {
      setError({
        message: explain(err),
        fields:
          err instanceof ApiError ? Object.keys(err.fields ?? {}).map((f) => f.split(/[.[]/)[0] ?? f) : [],
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="add-connector-title">
      <h2 id="add-connector-title">Add a connector</h2>
      <p class="muted">
        Keys are never stored: name the environment variable of the server that holds one. A local model is
        declared with its context window; floating tags (latest, a bare family name) are refused.
      </p>
      <form onSubmit={(e) => void submit(e)}>
        {field("id", "Id", "local")}
        <label for="connector-kind">Kind</label>
        <select
          id="connector-kind"
          value={fields.kind}
          onChange={(e) => setFields({ ...fields, kind: e.currentTarget.value })}
        >
          {CONNECTOR_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        {field("baseUrl", LABELS.baseUrl, "http://127.0.0.1:11434/v1")}
        {field("models", LABELS.models, "qwen2.5:14b-instruct-q4_K_M")}
        {field("contextWindow", LABELS.contextWindow, "32768")}
        {field("apiKeyEnv", LABELS.apiKeyEnv, "OPENAI_API_KEY")}
        {field("executable", LABELS.executable)}
        {field("config", LABELS.config, '{"compactThreshold":0.8}')}
        {error && (
          <p class="alert error" role="alert" data-testid="add-error">
            {error.message}
          </p>
        )}
        {added && (
          <p class={`alert ${added.ready ? "ok" : ""}`} role="status">
            Added {added.id}: {added.ready ? "ready" : `not ready — ${added.missing ?? "unknown"}`}.
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Adding…" : "Add connector"}
        </button>
      </form>
    </section>
  );
}

export function ConnectorsPage({ api, live }: { api: Api; live: LiveCompany }) {
  const me = useMe();
  const { company } = live;
  // The drifts runs saw: re-read as runs end and on Refresh.
  const driftReport = useResource(
    api,
    "GET /api/companies/{id}/model-drifts",
    company ? { params: { id: company.id } } : undefined,
  );
  const runsKey = live.runs.map((r) => `${r.id}:${r.status}`).join();
  const reloadDrifts = driftReport.reload;
  useEffect(() => reloadDrifts(), [runsKey, reloadDrifts]);
  if (!company) return <p aria-busy="true">Loading…</p>;
  const drifts = driftReport.data?.items ?? [];
  const policy = company.settings.onModelDrift ?? "warn";
  const reload = () => {
    live.reload(["connectors", "company", "agents"]);
    reloadDrifts();
  };
  return (
    <div class="overview">
      <section class="card" aria-labelledby="connectors-list-title">
        <h2 id="connectors-list-title">Connectors</h2>
        <p class="muted">
          Readiness is checked by the server in the background: credentials, executable, and whether the
          endpoint answered.{" "}
          <button type="button" class="link" onClick={reload}>
            Refresh
          </button>
        </p>
        <ul class="connectors" data-testid="connector-list">
          {live.connectors.map((c) => (
            <ConnectorItem
              key={c.id}
              api={api}
              connector={c}
              drifts={drifts}
              policy={policy}
              onChanged={reload}
            />
          ))}
        </ul>
      </section>
      {me.may.administer ? (
        <AddConnector api={api} companyId={company.id} onAdded={reload} />
      ) : (
        <p class="muted" data-testid="connectors-not-allowed">
          {notAllowed(me, "administer")}
        </p>
      )}
    </div>
  );
}
