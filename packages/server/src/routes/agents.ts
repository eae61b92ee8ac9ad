// Agents: the list, read and remove, the model switch (MC-13), and agent keys (operator only). (The
// hire POST on the list's path is a prompt profile's route: profiles/.)
import {
  ConnectorId,
  KeyLabel,
  mintAgentToken,
  ModelId,
  setAgentModel,
  terminateAgent,
} from "@cadre/company";
import { InternalError, NotFoundError } from "@cadre/core";
import { AGENT_STATUSES } from "@cadre/model";
import { Type } from "typebox";
import { route } from "./define.js";
import { PAGE_QUERY, pageAnswer, pageRequest, PageSchema } from "./pages.js";
import { enumQuery } from "./queries.js";
import { agentScope, companyScope } from "./scopes.js";
import {
  agentView,
  AgentViewSchema,
  keyView,
  KeyViewSchema,
  MintedKeyViewSchema,
  modelChangeView,
  ModelChangeViewSchema,
  terminationView,
  TerminationViewSchema,
} from "./views.js";

export const MintKeyBody = Type.Object({ label: Type.Optional(KeyLabel) }, { additionalProperties: false });

export const SetModelBody = Type.Object(
  {
    model: ModelId,
    connectorId: Type.Optional(ConnectorId),
  },
  { additionalProperties: false },
);

export const agentRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/agents",
    summary: "The company's agents (all by default; ?status=active|terminated).",
    access: "company",
    scope: companyScope,
    query: { status: "active | terminated", ...PAGE_QUERY },
    response: {
      status: 200,
      description: "A page of agents, by hire time then id.",
      schema: PageSchema(AgentViewSchema, "The agents."),
    },
    async handle({ c, ctx, scope }) {
      const status = enumQuery("status", c.req.query("status"), AGENT_STATUSES);
      const page = pageRequest(c);
      const agents = await ctx.store.listAgents(scope.companyId, {
        ...(status ? { status } : {}),
        page: page.store,
      });
      return pageAnswer(agents, page, (a) => a.createdAt, agentView);
    },
  }),
  route({
    method: "get",
    path: "/api/agents/{id}",
    summary: "One agent.",
    access: "company",
    scope: agentScope,
    response: { status: 200, description: "The agent.", schema: AgentViewSchema },
    handle: ({ scope }) => agentView(scope.agent),
  }),
  route({
    method: "delete",
    path: "/api/agents/{id}",
    summary:
      "Remove an agent: terminated, its keys revoked, its pending wake reasons cancelled, and each of its open tasks back with its creator (or the CEO), who is woken for it. The CEO cannot be removed.",
    access: "operator",
    role: "owner",
    scope: agentScope,
    response: {
      status: 200,
      description: "The agent, terminated, with the tasks it gave back and to whom.",
      schema: TerminationViewSchema,
    },
    errors: { 409: "The agent is the CEO." },
    async handle({ ctx, scope }) {
      const dataDir = ctx.wakes.dataDir;
      const termination = await terminateAgent(ctx.store, scope.agent.id, dataDir ? { dataDir } : {});
      // Its keys are revoked with it: the event streams opened with them end now.
      ctx.streams.closeAgent(termination.agent.id);
      return terminationView(termination);
    },
  }),
  route({
    method: "patch",
    path: "/api/agents/{id}/model",
    summary:
      "Switch the agent's model, or move it to another ready connector (connectorId). The model must be enabled on the connector it is to run on. A live session (a running wake in this server) is asked first, inside its session lock: a running turn or a recovery in flight refuses the switch; a window at 90% of the target's goes through a handoff first.",
    access: "operator",
    role: "owner",
    scope: agentScope,
    body: SetModelBody,
    response: {
      status: 200,
      description:
        "The agent with its model, the model before, whether it changed, and what the live session did (switch, handoff-then-switch, or no live session).",
      schema: ModelChangeViewSchema,
    },
    errors: {
      409: "The live session refused the switch (a turn is running, a recovery is in flight; a move to another connector waits for the run to end), or the agent is terminated. Nothing was written.",
    },
    async handle({ ctx, scope, body }) {
      const live = ctx.wakes.liveSession(scope.agent.id);
      const change = await setAgentModel(ctx.store, {
        agentId: scope.agent.id,
        model: body.model,
        ...(body.connectorId !== undefined ? { connectorId: body.connectorId } : {}),
        live,
        env: ctx.env,
        probes: ctx.probes,
      });
      return modelChangeView(change);
    },
  }),
  route({
    method: "post",
    path: "/api/agents/{id}/keys",
    summary: "Mint an agent token: acts as this agent, inside its company only. The token is shown once.",
    access: "operator",
    role: "owner",
    scope: agentScope,
    body: MintKeyBody,
    response: {
      status: 201,
      description: "The key, with its token (shown only here).",
      schema: MintedKeyViewSchema,
    },
    async handle({ ctx, scope, body }) {
      const { token, row } = await mintAgentToken(ctx.store, {
        agentId: scope.agent.id,
        label: body.label ?? "",
      });
      return { ...keyView(row), token };
    },
  }),
  route({
    method: "get",
    path: "/api/agents/{id}/keys",
    summary: "The agent's keys (never their tokens).",
    access: "operator",
    role: "owner",
    scope: agentScope,
    query: PAGE_QUERY,
    response: {
      status: 200,
      description: "A page of keys, oldest first.",
      schema: PageSchema(KeyViewSchema, "The keys."),
    },
    async handle({ c, ctx, scope }) {
      const page = pageRequest(c);
      return pageAnswer(
        await ctx.store.listApiTokens(scope.agent.id, page.store),
        page,
        (k) => k.createdAt,
        keyView,
      );
    },
  }),
  route({
    method: "delete",
    path: "/api/agents/{id}/keys/{keyId}",
    summary: "Revoke one of the agent's keys.",
    access: "operator",
    role: "owner",
    scope: agentScope,
    response: { status: 200, description: "The key, revoked.", schema: KeyViewSchema },
    async handle({ ctx, scope, params }) {
      const keyId = params["keyId"] ?? "";
      const key = (await ctx.store.listApiTokens(scope.agent.id)).find((k) => k.id === keyId);
      if (!key) throw new NotFoundError(`key ${keyId} of agent ${scope.agent.id} not found`);
      await ctx.store.revokeApiTokens({ id: key.id });
      ctx.streams.closeToken(key.id);
      const revoked = (await ctx.store.listApiTokens(scope.agent.id)).find((k) => k.id === keyId);
      if (!revoked) throw new InternalError(`revoked key ${keyId} is not in the store`);
      return keyView(revoked);
    },
  }),
];
