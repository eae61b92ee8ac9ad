// Wakes and runs: a wake answers as soon as its run exists and goes on in the background; the run
// and its stored events are readable while it goes on and after.
import { type PromptProfile, WAKE_TRIGGERS, type WakeTrigger } from "@cadre/model";
import type { BodySpec } from "../http/schema.js";
import { route } from "./define.js";
import { idQuery, limitQuery } from "./queries.js";
import {
  type AgentScope,
  agentScope,
  type CompanyScope,
  companyScope,
  type RunScope,
  runScope,
} from "./scopes.js";

export const WAKE_BODY: BodySpec = {
  trigger: {
    kind: "string",
    required: false,
    maxLength: 40,
    enum: WAKE_TRIGGERS,
    description: "Why the agent is woken; default inferred (a decision since its last run, else routine).",
  },
  profile: {
    kind: "string",
    required: false,
    maxLength: 20,
    enum: ["semantic", "legacy"],
    description: "Prompt profile of this wake (C4-7); default the company's.",
  },
  seed: {
    kind: "integer",
    required: false,
    min: 0,
    max: 2 ** 31 - 1,
    description: "Seed of the offline model's variation.",
  },
};

interface WakeBody {
  trigger?: WakeTrigger;
  profile?: PromptProfile;
  seed?: number;
}

const MAX_EVENTS_PAGE = 1000;

export const runRoutes = [
  route<AgentScope>({
    method: "post",
    path: "/api/agents/{id}/wake",
    summary:
      "Wake an agent. Answers once the run has started; the run goes on in the background. On PostgreSQL with workers the wake is queued and a worker runs it: the answer waits (up to 10 s) for the worker to start the run.",
    access: "operator",
    scope: agentScope,
    body: { spec: WAKE_BODY },
    responses: {
      202: '{ runId, profile, trigger, mode, cue, cueTokens } of the started run, and how it runs: via ("in-process" | "queue"), wakeId (the queued wake; null in-process), coalesced (it joined a wake of the agent still waiting), status ("started", or "queued" when no worker started the run within the wait: the run fields are then null).',
      400: "The wake was refused before its run started (e.g. the strategy is not approved); nothing was written.",
    },
    async handle({ c, ctx, scope, body }) {
      const input = body as WakeBody;
      const { run, mode, cue, cueTokens, via, wakeId, coalesced } = await ctx.wakes.request({
        agentId: scope.agent.id,
        ...input,
      });
      const started = {
        runId: run?.id ?? null,
        profile: run?.profile ?? null,
        trigger: run?.trigger ?? null,
        mode,
        cue,
        cueTokens,
      };
      return c.json({ ...started, via, wakeId, coalesced, status: run ? "started" : "queued" }, 202);
    },
  }),
  route<CompanyScope>({
    method: "get",
    path: "/api/companies/{id}/runs",
    summary: "The company's runs, oldest first: agent, trigger, mode, profile, cue, status, usage counters.",
    access: "company",
    scope: companyScope,
    responses: { 200: "A list of runs." },
    async handle({ c, ctx, scope }) {
      return c.json(await ctx.store.listRuns({ companyId: scope.companyId }));
    },
  }),
  route<RunScope>({
    method: "get",
    path: "/api/runs/{id}",
    summary: "A run: status, mode, profile, cue, usage.",
    access: "company",
    scope: runScope,
    responses: { 200: "The run." },
    handle: ({ c, scope }) => c.json(scope.run),
  }),
  route<RunScope>({
    method: "get",
    path: "/api/runs/{id}/events",
    summary: "A run's stored AgentEvents, in order (?after=EVENT_ID&limit=N), with the run as it stands.",
    access: "company",
    scope: runScope,
    query: { after: "event id to read after", limit: `1..${MAX_EVENTS_PAGE}` },
    responses: { 200: "{ run, events }" },
    async handle({ c, ctx, scope }) {
      const after = idQuery("after", c.req.query("after"));
      const limit = limitQuery(c.req.query("limit"), MAX_EVENTS_PAGE);
      // The run row first: when it says finished, the events read next are complete.
      const run = (await ctx.store.getRun(scope.run.id)) ?? scope.run;
      const events = (await ctx.store.listRunEvents(scope.run.id, after)).slice(0, limit);
      return c.json({ run, events });
    },
  }),
];
