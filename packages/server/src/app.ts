// createApp: the Hono app over a store. Every request goes through the same steps, in this order:
// authenticate (401) → access level (403) → the resource named in the path (404) → the caller's
// company (403) → the body: size (413), media type (415), JSON and schema (400) → the handler. Errors
// of every step are mapped to JSON in one place (http/errors.ts). Nothing is written before the
// handler runs, and the handlers write in one transaction, so a refused request changes nothing.
import { type ProbeBook, ProbeCache } from "@cadre/company";
import { actingAs, type AuditActor, type Store } from "@cadre/store";
import { randomUUID } from "node:crypto";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { authorizeCaller, authorizeCompany } from "./auth/access.js";
import { Authenticator, type Caller } from "./auth/principal.js";
import { revocationsOf } from "./auth/revocations.js";
import type { ServerContext, ServerLimits } from "./context.js";
import { type FeedBus, InProcessFeedBus } from "./feed/bus.js";
import { FeedReader } from "./feed/follow.js";
import { PrincipalStreams } from "./feed/principal-streams.js";
import { DEFAULT_MAX_BODY_BYTES, readJsonBody, TooDeepBody } from "./http/body.js";
import { dashboardHandler } from "./http/dashboard.js";
import { errorResponse, HttpError } from "./http/errors.js";
import { bodyRequired, type RouteSpec } from "./routes/define.js";
import { InternalError, UserInputError } from "@cadre/core";
import { describeProblems, parse, type TSchema } from "@cadre/model";
import { Value } from "typebox/value";
import { ReadinessMonitor } from "./readiness-monitor.js";
import { ROUTES } from "./routes/index.js";
import { type WakeEnqueuer, WakeRunner } from "./wakes.js";
import { DueWorkLoop } from "./due-work.js";
import { type ProfileServerOptions, profileServerOptions } from "./profiles/registry.js";

/** Beside its own, the prompt profiles' server options (profiles/registry.ts), e.g. `retireLegacyPosts`. */
export interface AppDeps extends Partial<ProfileServerOptions> {
  store: Store;
  /** The operator's token (at least 16 characters). */
  operatorToken: string;
  /** Default: an in-process bus. */
  bus?: FeedBus;
  /** Data directory: agents' working folders and the runs' working folders live under it. */
  dataDir?: string;
  /** Environment for connector readiness and sessions; default process.env. */
  env?: NodeJS.ProcessEnv;
  /** This server's own base URL once it listens; a profile whose CEO acts over HTTP calls it. */
  apiUrl?: () => string | undefined;
  limits?: Partial<ServerLimits>;
  /** The built operator dashboard (packages/web/dist), served at `/`; none when absent. */
  webRoot?: string;
  /**
   * PostgreSQL with the cluster parts: the wake route enqueues wakes here for the workers instead
   * of running them in this process (ClusterParts.queue).
   */
  queue?: WakeEnqueuer;
  /** How long the wake route waits for a worker to start a queued wake's run; default 10 s. */
  queueStartWaitMs?: number;
  /**
   * Tests: every JSON answer is checked against its route's response schema (as sent, after JSON)
   * and a mismatch is a 500 — the documents and the view types then cannot drift from the answers.
   */
  checkResponses?: boolean;
  /** Where internal errors (500s, failed background runs) are reported; default stderr. */
  log?: (line: string) => void;
  /** The connector probes' cache; default a new one for this app. */
  probes?: ProbeBook;
  /** How often every company's stale connector probes are refreshed in the background; 0: never (default 15 s). */
  readinessIntervalMs?: number;
  /**
   * The company at work: schedules ticked and agents with due work woken (in this process, or
   * through `queue`), looked for every `intervalMs` (default 10 s). Off unless given.
   */
  dueWork?: { intervalMs?: number };
}

export interface CadreApp {
  app: Hono;
  /** The store as the app uses it: every feed write signals the bus. */
  store: Store;
  bus: FeedBus;
  wakes: WakeRunner;
  /** Connector readiness refreshed in the background; started by startServer (tests may start it). */
  readiness: ReadinessMonitor;
  /**
   * Ends every event stream and cancels running wakes (each ends with a `cancelled` event, whose
   * reason is `reason` when given); returns the ids of the runs it cancelled.
   */
  shutdown(reason?: string): Promise<string[]>;
}

const toHonoPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1");

function checkResponse(spec: RouteSpec, answer: unknown): void {
  const schema = spec.response.schema as TSchema;
  const sent = JSON.parse(JSON.stringify(answer)) as unknown;
  if (Value.Check(schema, sent)) return;
  const [first] = Value.Errors(schema, sent);
  throw new InternalError(
    `the answer of ${spec.method.toUpperCase()} ${spec.path} does not match its response schema: ${first?.instancePath || "(body)"} ${first?.message ?? ""}`,
  );
}

export function createApp(deps: AppDeps): CadreApp {
  const bus = deps.bus ?? new InProcessFeedBus();
  // The store tells of every commit that grew a company's feed (its write path does): the bus
  // wakes that company's live streams.
  const unheard = deps.store.onFeedWrite((companyIds) => {
    for (const id of companyIds) bus.publish(id);
  });
  const auth = new Authenticator(deps.store, deps.operatorToken);
  // Every write through the app (routes, wakes, serve's recovery) that can end a credential
  // empties the authenticator's cache: a revoked key is refused at once.
  const store = revocationsOf(deps.store, () => auth.invalidate());
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const env = deps.env ?? process.env;
  const stop = new AbortController();
  const probes = deps.probes ?? new ProbeCache();
  const readiness = new ReadinessMonitor({
    store,
    env,
    probes,
    ...(deps.readinessIntervalMs !== undefined ? { intervalMs: deps.readinessIntervalMs } : {}),
    log,
  });
  const wakes = new WakeRunner({
    store,
    apiUrl: deps.apiUrl ?? (() => undefined),
    env,
    probes,
    ...(deps.dataDir ? { dataDir: deps.dataDir } : {}),
    ...(deps.queue ? { queue: deps.queue } : {}),
    ...(deps.queueStartWaitMs !== undefined ? { queueStartWaitMs: deps.queueStartWaitMs } : {}),
    onBackgroundError: (error) =>
      log(
        `cadre server: a background run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      ),
  });
  // Always there for `cadre run --server` (POST …/due-work); it looks on its own unless --no-scheduler.
  const dueWork = new DueWorkLoop({
    store,
    ...(deps.dueWork?.intervalMs !== undefined ? { intervalMs: deps.dueWork.intervalMs } : {}),
    wake: (agentId, checked) => wakes.wakeDue(agentId, checked),
    startDue: (agentId, seed, checked) => wakes.startDue(agentId, seed, checked),
    log,
  });
  if (deps.dueWork) dueWork.start();
  const ctx: ServerContext = {
    store,
    bus,
    feed: new FeedReader(store),
    auth,
    wakes,
    dueWork,
    streams: new PrincipalStreams(),
    env,
    probes,
    readiness,
    profiles: profileServerOptions(deps),
    shutdown: stop.signal,
    limits: { maxBodyBytes: DEFAULT_MAX_BODY_BYTES, ssePollMs: 1000, sseHeartbeatMs: 15_000, ...deps.limits },
  };

  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    // Set on the answer's own headers: Hono's c.header() after the answer is made would copy it
    // into a new Response (and make @hono/node-server build the full one it otherwise skips), on
    // every request. A response whose headers cannot change (none we make) takes that path.
    try {
      const headers = c.res.headers;
      headers.set("X-Content-Type-Options", "nosniff");
      if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
    } catch {
      c.header("X-Content-Type-Options", "nosniff");
      if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
    }
  });
  for (const spec of ROUTES) app.on(spec.method.toUpperCase(), toHonoPath(spec.path), (c) => handle(spec, c));
  if (deps.webRoot) {
    const dashboard = dashboardHandler(deps.webRoot);
    // After the API's own routes; an unknown /api/ path stays the API's JSON 404.
    app.on(["GET", "HEAD"], "*", async (c, next) =>
      c.req.path.startsWith("/api/") ? next() : ((await dashboard(c)) ?? next()),
    );
  }
  app.notFound((c) =>
    c.json(
      {
        error: {
          code: "not_found",
          message: `no route ${c.req.method} ${c.req.path}; see GET /api/openapi.json`,
        },
      },
      404,
    ),
  );
  app.onError((error, c) => {
    const mapped = errorResponse(error, (e) =>
      log(
        `cadre server: internal error on ${c.req.method} ${c.req.path}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      ),
    );
    return c.json(mapped.body, mapped.status as ContentfulStatusCode);
  });

  async function handle(spec: RouteSpec, c: Parameters<Parameters<Hono["on"]>[2]>[0]): Promise<Response> {
    const requestId = requestIdOf(c.req.header("x-request-id"));
    c.header("X-Request-Id", requestId);
    const principal: Caller =
      spec.access === "public"
        ? { kind: "anonymous" }
        : await ctx.auth.authenticate(c.req.header("authorization"));
    // Who may call the route (kind, role), then on which company: checked here, for every route.
    authorizeCaller(spec, principal);
    const params = c.req.param() as Record<string, string>;
    const scope = spec.scope ? await spec.scope(ctx, params) : undefined;
    authorizeCompany(spec, principal, scope?.companyId);
    spec.before?.(ctx);
    let body: unknown;
    if (spec.body) {
      let raw: unknown;
      try {
        raw = await readJsonBody(c, ctx.limits.maxBodyBytes, !bodyRequired(spec.body));
      } catch (error) {
        if (!(error instanceof TooDeepBody)) throw error;
        // Too deep in some fields: the rest is checked too, so the refusal names every field at fault.
        const others = restProblems(spec, error.rest);
        const fields = { ...others, ...error.fields };
        throw new HttpError(
          400,
          "invalid_input",
          `${spec.method.toUpperCase()} ${spec.path}: nothing was written. Fix: ${describeProblems(fields)}.`,
          fields,
        );
      }
      if (spec.validate) {
        const result = spec.validate(raw);
        if (!result.ok) throw new HttpError(400, "invalid_input", result.message, result.fields);
        body = result.value;
      } else {
        const parsed = parse(spec.body, raw);
        if (!parsed.ok)
          throw new UserInputError(
            `${spec.method.toUpperCase()} ${spec.path}: nothing was written. Fix: ${describeProblems(parsed.problems)}.`,
            parsed.problems,
          );
        body = parsed.value;
      }
    }
    // Every audited write the handler makes (and a run it starts, until the run's agent takes over)
    // is recorded as this caller's, with this request's id. A public route (health, the API
    // document) writes nothing: it runs without the async context, which costs every promise.
    const call = () => spec.handle({ c, ctx, principal, params, scope, body });
    const answer =
      principal.kind === "anonymous" ? await call() : await actingAs(auditActor(principal), call, requestId);
    if (spec.produces === "sse" || spec.produces === "file") return answer as Response;
    if (deps.checkResponses) checkResponse(spec, answer);
    return c.json(answer as object, spec.response.status);
  }

  return {
    app,
    store,
    bus,
    wakes,
    readiness,
    async shutdown(reason?: string) {
      stop.abort();
      readiness.stop();
      dueWork.stop();
      try {
        return await wakes.shutdown(reason);
      } finally {
        unheard();
      }
    },
  };
}

/** The caller's own request id when it sent a sane one (echoed, and kept in the audit log), else a new one. */
function requestIdOf(sent: string | undefined): string {
  return sent !== undefined && /^[\w.:-]{1,100}$/.test(sent)
    ? sent
    : `req_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
}

function auditActor(principal: Caller): AuditActor {
  if (principal.kind === "operator") return { type: "operator", name: principal.name };
  if (principal.kind === "agent")
    return { type: "agent", agentId: principal.agentId, runId: principal.runId };
  return { type: "system" };
}

/** What a route's own checks say about a body (the fields at fault), or nothing. */
function restProblems(
  spec: {
    body?: TSchema;
    validate?: (raw: unknown) => { ok: true } | { ok: false; fields: Record<string, string> };
  },
  rest: Record<string, unknown>,
): Record<string, string> {
  if (spec.validate) {
    const result = spec.validate(rest);
    return result.ok ? {} : result.fields;
  }
  if (!spec.body) return {};
  const parsed = parse(spec.body, rest);
  return parsed.ok ? {} : parsed.problems;
}
