// A typed call of a running API for the commands outside the operator port (operators, audit,
// runs): the API's refusals keep their meaning (a 4xx is exit 2 with the API's message).
import {
  type AnswerOf,
  type CallArgs,
  createApiClient,
  type Endpoint,
  type ItemOf,
  listAll,
  type ListEndpoint,
} from "@cadre/server/client";
import { cliError } from "../operator/http.js";
import type { ServerTarget } from "./server-option.js";

export async function callApi<K extends Endpoint>(
  target: ServerTarget,
  endpoint: K,
  ...input: CallArgs<K>
): Promise<AnswerOf<K>> {
  const api = createApiClient({ baseUrl: target.url, token: target.token });
  try {
    return await api.call(endpoint, ...input);
  } catch (error) {
    throw cliError(error);
  }
}

/** Every item of a paged list, read page after page (the whole list, as the command always showed). */
export async function callApiAll<K extends ListEndpoint>(
  target: ServerTarget,
  endpoint: K,
  ...input: CallArgs<K>
): Promise<ItemOf<K>[]> {
  const api = createApiClient({ baseUrl: target.url, token: target.token });
  try {
    return await listAll(api, endpoint, ...input);
  } catch (error) {
    throw cliError(error);
  }
}
