// The prompt profiles' server parts (C4-7): the routes a profile adds (mounted by the route table,
// described by the OpenAPI document like any other) and the options they read, which createApp and
// startServer accept beside their own and hand to handlers as `ctx.profiles`.
import { legacyRoutes, type LegacyServerOptions, legacyServerOptions } from "./legacy/routes.js";

/** Every profile's server options. */
export type ProfileServerOptions = LegacyServerOptions;

export function profileServerOptions(given: Partial<ProfileServerOptions>): ProfileServerOptions {
  return { ...legacyServerOptions(given) };
}

export const PROFILE_ROUTES = [...legacyRoutes];
