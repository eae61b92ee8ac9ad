// The route table, in one list: what the app registers and what the OpenAPI document describes.
import { agentRoutes } from "./agents.js";
import { sessionRoutes } from "./sessions.js";
import { approvalRoutes } from "./approvals.js";
import { companyRoutes } from "./companies.js";
import { connectorRoutes } from "./connectors.js";
import type { RouteSpec } from "./define.js";
import { eventRoutes } from "./events.js";
import { metaRoutes } from "./meta.js";
import { runRoutes } from "./runs.js";
import { runStopRoutes } from "./run-stop.js";
import { messageRoutes } from "./messages.js";
import { taskRoutes } from "./tasks.js";
import { taskFileRoutes } from "./task-files.js";
import { reviewRoutes } from "./reviews.js";
import { usageRoutes } from "./usage.js";
import { budgetRoutes } from "./budgets.js";
import { driftRoutes } from "./drifts.js";
import { dueWorkRoutes } from "./due-work.js";
import { peopleRoutes } from "./people.js";
import { PROFILE_ROUTES } from "../profiles/registry.js";

const TABLE = [
  ...metaRoutes(() => ROUTES),
  ...companyRoutes,
  ...connectorRoutes,
  ...agentRoutes,
  ...sessionRoutes,
  ...approvalRoutes,
  // The routes a prompt profile adds (C4-7), e.g. the legacy hire and approval POSTs.
  ...PROFILE_ROUTES,
  ...runRoutes,
  ...runStopRoutes,
  ...messageRoutes,
  ...taskRoutes,
  ...taskFileRoutes,
  ...reviewRoutes,
  ...dueWorkRoutes,
  ...usageRoutes,
  ...budgetRoutes,
  ...driftRoutes,
  ...eventRoutes,
  ...peopleRoutes,
];

export const ROUTES: readonly RouteSpec[] = TABLE;

/** Every route with its literal method, path and schema types: what the typed API client is typed by. */
export type RouteTable = (typeof TABLE)[number];
