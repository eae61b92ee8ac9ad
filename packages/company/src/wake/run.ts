// The run itself: the session opened, its turn sent (the per-call part, MC-3: what changed in the
// instructions since the session began, the cue, then the agents' writing about the work as data),
// and every event it streams recorded until its one terminal. Code stops it — cancelled by the
// caller, at its wall-time cap, on a drifted model, or (a harness that calls the model itself)
// once a budget or cap is reached after the call that reached it settled.
import { perCallPrompt } from "../prompts/session-update.js";
import { firstTurn, workBriefing } from "../work/briefing.js";
import { DriftRefused, type RunContext } from "./context.js";
import { endingOf } from "./ending.js";
import { openSession } from "./session-open.js";

export async function runSession(ctx: RunContext, signal: AbortSignal | undefined): Promise<void> {
  const { options, plan, budget, drift, record, held } = ctx;
  const { agent, mode, state, directory } = plan;
  // Refused before any call: the company does not run a model replaced under its id.
  const refused = drift.stop;
  if (refused) throw new DriftRefused(`${refused.reason}: ${refused.message}`);
  const tools = await openSession(ctx);
  const briefing = !held.profileRun?.briefing
    ? ""
    : await workBriefing(options.store, {
        agent,
        agents: directory.listed,
        strategy: mode === "operating" ? state.latestStrategy : null,
        taken: ctx.claim.started.taken,
      });
  const live = held.session!;
  const events = live.send(perCallPrompt(firstTurn(ctx.run.cue, briefing), held.sessionPlan!.changed));
  let stopping = false;
  const stop = (reason: string) => {
    if (stopping) return;
    stopping = true;
    live.cancel(reason);
  };
  // The abort's reason, when it is one (e.g. "cancelled by SIGINT"), becomes the terminal's.
  const cancel = () => live.cancel(typeof signal?.reason === "string" ? signal.reason : undefined);
  if (signal?.aborted) cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  // The wall-time cap holds whatever the run waits on (a harness retrying, a slow loop).
  const wallSeconds = budget.caps.maxWallSeconds;
  const wallTimer =
    wallSeconds === null
      ? undefined
      : setTimeout(() => {
          const reached = budget.wallTimeReached();
          if (reached) stop(`${reached.reason}: ${reached.message}`);
        }, wallSeconds * 1000);
  const stream = events[Symbol.asyncIterator]();
  let next = stream.next();
  let ended = false;
  try {
    for (let step = await next; !step.done; step = await next) {
      const event = endingOf(step.value, { budget, drift }, (e) => record.say(e));
      record.take(event, tools);
      const drifted = drift.see(event);
      if (drifted) {
        record.say(drifted);
        if (drift.stop) stop(`${drift.stop.reason}: ${drift.stop.message}`);
      }
      next = stream.next();
      await record.writeDue(event, next);
      if (budget.stop && event.type !== "terminal" && !stopping) {
        if (budget.cancelsHarness) stop(`${budget.stop.reason}: ${budget.stop.message}`);
        else stopping = true;
      }
    }
    ended = true;
    await record.writeOwed();
  } finally {
    clearTimeout(wallTimer);
    signal?.removeEventListener("abort", cancel);
    // Left early (a write failed): the stream is closed, as `for await` would, and its next event dropped.
    if (!ended) {
      next.catch(() => undefined);
      void stream.return?.()?.catch(() => undefined);
    }
  }
}
