// Test support: an app over a fresh in-memory store (real SQLite, real Pi loop, real handlers), a
// request helper over app.request() (no port), and readers for SSE responses. No vitest import, so
// it type-checks with the package.
import { addOperator } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { type AppDeps, type CadreApp, createApp } from "../app.js";

export const OPERATOR_TOKEN = "test-operator-token-0123456789abcdef";

export interface TestApp {
  store: Store;
  cadre: CadreApp;
  request(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface RequestOptions {
  token?: string | null;
  /** Serialised as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as is (with the given headers). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function testApp(deps: Partial<AppDeps> = {}): Promise<TestApp> {
  return testAppOver(await openStore({ memory: true }), deps);
}

/**
 * An app over a given store (e.g. a file store, or a wrapper that holds a write). `store` is what
 * the test reads; `deps.store` may be a wrapper of it that the app writes through.
 */
export function testAppOver(
  store: Store,
  deps: Partial<AppDeps> = {},
  onClose: () => Promise<void> = async () => {},
): TestApp {
  const cadre = createApp({
    store,
    operatorToken: OPERATOR_TOKEN,
    env: {},
    log: () => {},
    limits: { ssePollMs: 50 },
    // Every JSON answer must match its route's response schema (the documents and view types).
    checkResponses: true,
    ...deps,
  });
  return {
    store,
    cadre,
    request: (method, path, options) => send(cadre, method, path, options),
    async close() {
      await cadre.shutdown();
      await store.close();
      await onClose();
    },
  };
}

export async function send(
  cadre: CadreApp,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? OPERATOR_TOKEN : options.token;
  if (token !== null) headers["authorization"] ??= `Bearer ${token}`;
  let body: string | Uint8Array | undefined;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers["content-type"] ??= "application/json";
  } else if (options.raw !== undefined) {
    body = options.raw;
  }
  const response = await cadre.app.request(path, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text.length > 0 ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

/** Parses SSE frames from a byte stream as they arrive. */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { id: undefined, event: undefined, data: "" };
        let hasData = false;
        for (const line of frame.split("\n")) {
          if (line.startsWith("id: ")) event.id = line.slice(4);
          else if (line.startsWith("event: ")) event.event = line.slice(7);
          else if (line.startsWith("data: ")) {
            event.data += (hasData ? "\n" : "") + line.slice(6);
            hasData = true;
          }
        }
        if (hasData) yield event;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** Creates a company through the API; returns it with its CEO's id. */
export async function apiCompany(
  app: TestApp,
  body: Record<string, unknown> = {},
): Promise<{ id: string; ceoAgentId: string }> {
  const r = await app.request("POST", "/api/companies", {
    json: {
      name: "Acme Robotics",
      goal: "Build warehouse robots and sell them to logistics companies.",
      ...body,
    },
  });
  if (r.status !== 201) throw new Error(`company creation failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { id: string; ceoAgentId: string };
}

/** Mints an agent token through the API. */
export async function apiKey(app: TestApp, agentId: string): Promise<string> {
  const r = await app.request("POST", `/api/agents/${agentId}/keys`, { json: { label: "test" } });
  if (r.status !== 201) throw new Error(`key minting failed: ${r.status} ${JSON.stringify(r.body)}`);
  return (r.body as { token: string }).token;
}

export const HIRE = {
  name: "CTO",
  role: "Chief Technology Officer",
  description: "Owns the architecture.",
  connectorId: "offline",
  model: "offline-scripted-1",
  department: "engineering",
};

export type Who = "none" | "bad" | "operator" | "agentHere" | "agentElsewhere";

/** Named operators of the test world: each role, of every company, limited to A, or limited to B. */
export const NAMED_WHO = [
  "ownerAll",
  "ownerA",
  "ownerB",
  "operatorAll",
  "operatorA",
  "operatorB",
  "viewerAll",
  "viewerA",
  "viewerB",
] as const;
export type NamedWho = (typeof NAMED_WHO)[number];

/** Two companies; in A: a CEO, a hired CTO with a key, a pending hire approval, a run with one event. */
export interface World {
  app: TestApp;
  companyA: string;
  ceoA: string;
  ctoA: string;
  ctoKeyId: string;
  approvalA: string;
  runA: string;
  /** undefined: the operator (the helper's default); null: no token. */
  tokens: Record<Who, string | null | undefined>;
  /** The named operators' tokens; and "victim", an operator there to be revoked. */
  people: Record<NamedWho, string>;
}

export async function testWorld(deps: Partial<AppDeps> = {}): Promise<World> {
  const app = await testApp(deps);
  const a = await apiCompany(app);
  const b = await apiCompany(app, { name: "Other Co" });
  const cto = (await app.request("POST", `/api/companies/${a.id}/agents`, { json: HIRE })).body.id as string;
  const ctoKey = (await app.request("POST", `/api/agents/${cto}/keys`, { json: {} })).body.id as string;
  // An approval to read and decide. A hire_agent approval, not a strategy: a pending strategy would
  // close hiring and filing, and the tests of those routes expect the CEO to be free to do both.
  const settings = (await app.store.getCompany(a.id))?.settings;
  if (!settings) throw new Error("company A vanished");
  await app.store.updateCompanySettings(a.id, { ...settings, requireHireApproval: true });
  const approval = (
    await app.request("POST", `/api/companies/${a.id}/approvals`, {
      json: {
        type: "hire_agent",
        title: "Hire a CFO",
        payload: JSON.stringify({
          ...HIRE,
          name: "CFO",
          role: "Chief Financial Officer",
          department: "finance",
        }),
      },
    })
  ).body.id as string;
  await app.store.insertRun({
    id: "run_a",
    companyId: a.id,
    agentId: a.ceoAgentId,
    trigger: "routine",
    mode: "strategy-drafting",
    profile: "semantic",
    cue: "cue",
  });
  await app.store.appendRunEvents([
    {
      runId: "run_a",
      companyId: a.id,
      seq: 0,
      type: "text_delta",
      data: { type: "text_delta", index: 0, delta: "hi" },
    },
  ]);
  // A task (the company is not operating yet: written to the store directly), for the task routes.
  await app.store.insertTask({
    id: "task_a",
    companyId: a.id,
    title: "Draft the plan",
    description: "",
    status: "todo",
    assigneeAgentId: cto,
    creatorAgentId: a.ceoAgentId,
    parentTaskId: null,
    strategyId: null,
    deliverable: null,
    blockers: [],
    via: "tool",
  });
  // A file handed in with it, for the route that serves it.
  await app.store.attachTaskFile({
    id: "tfl_a",
    taskId: "task_a",
    companyId: a.id,
    name: "docs/plan.md",
    mediaType: "text/markdown",
    addedBy: cto,
    runId: null,
    content: new TextEncoder().encode("# Plan\n"),
  });
  const tokens: Record<Who, string | null | undefined> = {
    none: null,
    bad: "cadre_agt_not-a-real-token-at-all-000000000000000",
    operator: undefined,
    agentHere: await apiKey(app, a.ceoAgentId),
    agentElsewhere: await apiKey(app, b.ceoAgentId),
  };
  const people = {} as Record<NamedWho, string>;
  for (const who of NAMED_WHO) {
    const role = who.replace(/(All|A|B)$/, "");
    const scope = who.endsWith("All") ? [] : who.endsWith("A") ? [a.id] : [b.id];
    const added = await addOperator(app.store, { name: who.toLowerCase(), role, companies: scope });
    people[who] = added.token;
  }
  await addOperator(app.store, { name: "victim", role: "viewer" });
  return {
    app,
    people,
    companyA: a.id,
    ceoA: a.ceoAgentId,
    ctoA: cto,
    ctoKeyId: ctoKey,
    approvalA: approval,
    runA: "run_a",
    tokens,
  };
}
