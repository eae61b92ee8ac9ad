// How fast a harness connector gives up on a failing model provider: the harness's own
// retries of one request (`config.maxRetries`, Claude Code and Codex) and, for Codex, how long a
// provider it cannot reach is waited for (`config.unreachableMs`). Defaults: 2 retries, 30 s.
import { UserInputError } from "@cadre/core";

type ConfigOf = { config: Record<string, unknown> };

const MAX_RETRIES_LIMIT = 10;

/** Why the connector's bounds are not usable; undefined when they are (or are not set). */
export function failureBoundsProblem(connector: ConfigOf): string | undefined {
  const retries = connector.config["maxRetries"];
  if (
    retries !== undefined &&
    !(
      typeof retries === "number" &&
      Number.isInteger(retries) &&
      retries >= 0 &&
      retries <= MAX_RETRIES_LIMIT
    )
  )
    return `config.maxRetries must be a whole number from 0 to ${MAX_RETRIES_LIMIT} (the harness's retries of one failed model request; default 2); got ${JSON.stringify(retries)}`;
  const unreachable = connector.config["unreachableMs"];
  if (
    unreachable !== undefined &&
    !(typeof unreachable === "number" && Number.isFinite(unreachable) && unreachable > 0)
  )
    return `config.unreachableMs must be a positive number of milliseconds (how long a model provider Codex cannot reach is waited for; default 30000); got ${JSON.stringify(unreachable)}`;
  return undefined;
}

/** The connector's bounds as session options; bad values are refused, saying what is allowed. */
export function failureBoundsOf(connector: ConfigOf): { maxRetries?: number; unreachableMs?: number } {
  const problem = failureBoundsProblem(connector);
  if (problem !== undefined) throw new UserInputError(problem, { config: "invalid" });
  const retries = connector.config["maxRetries"];
  const unreachable = connector.config["unreachableMs"];
  return {
    ...(typeof retries === "number" ? { maxRetries: retries } : {}),
    ...(typeof unreachable === "number" ? { unreachableMs: unreachable } : {}),
  };
}
