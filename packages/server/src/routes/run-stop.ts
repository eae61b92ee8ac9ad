// Stopping a running run from the dashboard or the API: cancelled as SIGINT cancels a run in the
// terminal (one `cancelled` end, the usage of the calls made kept, the wake's reasons left pending
// for the next wake). Only a run of this server's own process can be stopped here.
import { ConflictStateError } from "@cadre/core";
import { route } from "./define.js";
import { runScope } from "./scopes.js";
import { runView, RunViewSchema } from "./views.js";

export const STOP_REASON = "stopped by the operator";

export const runStopRoutes = [
  route({
    method: "post",
    path: "/api/runs/{id}/stop",
    summary:
      "Stop a running run (operator only): it ends cancelled, as on SIGINT, keeping the usage of the calls it made. Answers once it has ended.",
    access: "operator",
    scope: runScope,
    response: { status: 200, description: "The run, ended.", schema: RunViewSchema },
    errors: {
      409: "The run is not running (it has ended), or another process runs it. Nothing was changed.",
    },
    async handle({ ctx, scope }) {
      const { run } = scope;
      if (run.status !== "running")
        throw new ConflictStateError(`run ${run.id} is not running (it is ${run.status}): nothing to stop`);
      if (!(await ctx.wakes.stopRun(run.id, STOP_REASON)))
        throw new ConflictStateError(
          `run ${run.id} is not run by this server (a worker runs it, or it has just ended): stop it where it runs`,
        );
      // The stop is the operator's write: it reaches the feed and the audit log under their name.
      await ctx.store.insertActivity({
        companyId: run.companyId,
        agentId: run.agentId,
        runId: run.id,
        type: "run.stopped",
        data: { reason: STOP_REASON },
      });
      return runView((await ctx.store.getRun(run.id)) ?? run);
    },
  }),
];
