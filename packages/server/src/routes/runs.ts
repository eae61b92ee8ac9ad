// Wakes and runs: a wake answers as soon as its run exists and goes on in the background; the run
// and its stored events are readable while it goes on and after.
import { whyRun } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { OneOf, PROMPT_PROFILES, RUN_STATUSES, WAKE_TRIGGERS } from "@cadre/model";
import { Type } from "typebox";
import { route } from "./define.js";
import { PAGE_QUERY, pageAnswer, pageRequest, PageSchema } from "./pages.js";
import { enumQuery, idQuery, limitQuery } from "./queries.js";
import { RunWhySchema } from "./why-view.js";
import { runDetailView, RunDetailSchema } from "./run-detail.js";
import { agentScope, companyScope, runScope } from "./scopes.js";
import {
  runEventView,
  RunEventsPageSchema,
  runView,
  RunViewSchema,
  WakeStartedSchema,
  wakeStartedView,
} from "./views.js";

export const WakeBody = Type.Object(
  {
    trigger: Type.Optional(
      OneOf(WAKE_TRIGGERS, {
        description:
          "Why the agent is woken; default inferred (a decision since its last run, else routine).",
      }),
    ),
    profile: Type.Optional(
      OneOf(PROMPT_PROFILES, { description: "Prompt profile of this wake; default the company's." }),
    ),
    seed: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 2 ** 31 - 1,
        description: "Seed of the offline model's variation.",
      }),
    ),
  },
  { additionalProperties: false },
);

const MAX_EVENTS_PAGE = 1000;

export const runRoutes = [
  route({
    method: "post",
    path: "/api/agents/{id}/wake",
    summary:
      "Wake an agent. Answers once the run has started; the run goes on in the background. On PostgreSQL with workers the wake is queued and a worker runs it: the answer waits (up to 10 s) for the worker to start the run.",
    access: "operator",
    scope: agentScope,
    body: WakeBody,
    response: {
      status: 202,
      description:
        'The started run (runId, profile, trigger, mode, cue, cueTokens) and how it runs: via ("in-process" | "queue"), wakeId (the queued wake; null in-process), coalesced (it joined a wake of the agent still waiting), status ("started", or "queued" when no worker started the run within the wait: the run fields are then null).',
      schema: WakeStartedSchema,
    },
    errors: {
      400: "The wake was refused before its run started (e.g. the strategy is not approved); nothing was written.",
    },
    async handle({ ctx, scope, body }) {
      return wakeStartedView(await ctx.wakes.request({ agentId: scope.agent.id, ...body }));
    },
  }),
  route({
    method: "get",
    path: "/api/companies/{id}/runs",
    summary:
      "The company's runs, oldest first: agent, trigger, mode, profile, cue, status, usage counters (?status=failed&since=ISO: the failed runs since a time).",
    access: "company",
    scope: companyScope,
    query: {
      ...PAGE_QUERY,
      status: RUN_STATUSES.join(" | "),
      since: "ISO time: runs started at or after it",
    },
    response: {
      status: 200,
      description: "A page of runs, by start time then id.",
      schema: PageSchema(RunViewSchema, "The runs."),
    },
    async handle({ c, ctx, scope }) {
      const page = pageRequest(c);
      const status = enumQuery("status", c.req.query("status"), RUN_STATUSES);
      const sinceRaw = c.req.query("since");
      if (sinceRaw !== undefined && Number.isNaN(Date.parse(sinceRaw)))
        throw new UserInputError(`since must be an ISO time, e.g. 2026-12-01T00:00:00Z (got "${sinceRaw}")`, {
          since: "an ISO time",
        });
      const since = sinceRaw === undefined ? undefined : new Date(sinceRaw).toISOString();
      if (since === undefined) {
        const runs = await ctx.store.listRuns({
          companyId: scope.companyId,
          ...(status ? { status } : {}),
          page: page.store,
        });
        return pageAnswer(runs, page, (r) => r.startedAt, runView);
      }
      // Filtered by time: the rows after the cursor, those since the time, then the page.
      const after = page.store.after === undefined ? {} : { after: page.store.after };
      const runs = (
        await ctx.store.listRuns({ companyId: scope.companyId, ...(status ? { status } : {}), page: after })
      )
        .filter((r) => r.startedAt >= since)
        .slice(0, page.store.limit);
      return pageAnswer(runs, page, (r) => r.startedAt, runView);
    },
  }),
  route({
    method: "get",
    path: "/api/runs/{id}",
    summary:
      "A run: status, mode, profile, cue, usage, who ran it (name, role), its company and its cost in USD.",
    access: "company",
    scope: runScope,
    response: {
      status: 200,
      description: "The run, with its agent, company and cost (null: a price is unknown).",
      schema: RunDetailSchema,
    },
    handle: ({ ctx, scope }) => runDetailView(ctx.store, scope.run),
  }),
  route({
    method: "get",
    path: "/api/runs/{id}/why",
    summary:
      "Why the run happened: each reason it was woken (who caused it, the task or approval, the run it came from), back to an operator's action or a schedule.",
    access: "company",
    scope: runScope,
    response: {
      status: 200,
      description: "The run and every run its causes go back through.",
      schema: RunWhySchema,
    },
    handle: ({ ctx, scope }) => whyRun(ctx.store, scope.run.id),
  }),
  route({
    method: "get",
    path: "/api/runs/{id}/events",
    summary: "A run's stored AgentEvents, in order (?after=EVENT_ID&limit=N), with the run as it stands.",
    access: "company",
    scope: runScope,
    query: { after: "event id to read after", limit: `1..${MAX_EVENTS_PAGE}` },
    response: {
      status: 200,
      description: "The run as it stands and a page of its events.",
      schema: RunEventsPageSchema,
    },
    async handle({ c, ctx, scope }) {
      const after = idQuery("after", c.req.query("after"));
      const limit = limitQuery(c.req.query("limit"), MAX_EVENTS_PAGE);
      // The run row first: when it says finished, the events read next are complete.
      const run = (await ctx.store.getRun(scope.run.id)) ?? scope.run;
      const events = (await ctx.store.listRunEvents(scope.run.id, after)).slice(0, limit);
      return { run: runView(run), events: events.map(runEventView) };
    },
  }),
];
