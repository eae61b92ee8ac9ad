// The dashboard's API client is the API's own (`@cadre/server/client`): typed by the server's route
// table — each call's path parameters, body and answer are the `Static<>` of the route's schemas —
// and reading the server's one error envelope ({ error: { code, message, fields } }) into an
// ApiError the views show as is. That module imports types only, so the bundle carries its few
// lines and no server code.
import { type ApiClient, type ApiClientOptions, createApiClient } from "@cadre/server/client";

export { ApiError, apiErrorOf, type CallInput, type Endpoint, listAll } from "@cadre/server/client";
export type Api = ApiClient;

export type ApiOptions = Omit<ApiClientOptions, "token" | "baseUrl">;

/** A client of this page's own server (paths are same-origin). */
export function createApi(token: string, options: ApiOptions = {}): Api {
  return createApiClient({ token, ...options });
}
