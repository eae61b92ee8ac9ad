// @cadre/server: the HTTP API (Hono on Node) — routes, auth, live events (SSE), OpenAPI.
export { type AppDeps, type CadreApp, createApp } from "./app.js";
export { DEFAULT_PORT, type RunningServer, startServer, type StartServerOptions } from "./server.js";
export type { Access } from "./auth/access.js";
export type { Caller, Principal } from "./auth/principal.js";
export type { ServerLimits } from "./context.js";
export { type FeedBus, InProcessFeedBus } from "./feed/bus.js";
export {
  type FeedFailure,
  type FeedItem,
  type FeedPage,
  FeedReader,
  followFeed,
  followFeedPages,
} from "./feed/follow.js";
export { type FeedMessage, FeedMessageSchema, feedMessage } from "./feed/sse.js";
export { type ErrorBody, errorResponse, HttpError } from "./http/errors.js";
export { openApiDocument } from "./openapi.js";
export { ROUTES } from "./routes/index.js";
// The API's views, whole (also `@cadre/server/views`): the client and the dashboard read them all.
export * from "./routes/views.js";
export type { CompanyGlance, CompanyListItemView } from "./routes/company-glance.js";
export type { RunDetailView } from "./routes/run-detail.js";
export { ErrorBodySchema } from "./http/errors.js";
// The load benchmark (`npm run bench`); its load generator is the bench's own process.
export {
  type BenchOptions,
  benchServer,
  type FanoutFigure,
  type LoadDrive,
  type LoadResult,
  type LoadSpec,
  type PairedRound,
  type ServerBenchResult,
  type ServerFigure,
} from "./bench/index.js";
// Several machines (PostgreSQL): wake queue and workers, leases and recovery, the LISTEN/NOTIFY feed bus.
export { startClusterParts, type WakeOutcome, WakeQueue, WakeWorker } from "./cluster/index.js";
