// An agent's session across wakes: what is kept (the native session the next wake continues, or a
// pending handoff), and the operator's reset (the next wake starts fresh). Refused with 409 while
// a run of the agent holds the session; the reset and its activity are one transaction. A run whose
// process died releases the session when it is recovered (recovery/recover.ts); `{"force": true}`
// releases one at once.
import { resetAgentSession } from "@cadre/company";
import { Type } from "typebox";
import { route } from "./define.js";
import { agentScope } from "./scopes.js";
import { AgentSessionAnswerSchema, agentSessionView, SessionResetViewSchema } from "./views.js";

export const ResetSessionBody = Type.Object(
  {
    force: Type.Optional(
      Type.Boolean({
        description:
          "Release a session still held by a run that died with its process (normally its recovery releases it).",
      }),
    ),
  },
  { additionalProperties: false },
);

export const sessionRoutes = [
  route({
    method: "get",
    path: "/api/agents/{id}/session",
    summary:
      "The agent's kept session: harness, native session id (and Pi session file), model and connector it was built for, Pi's frozen reserveTokens, a pending handoff, whether it rolled over, the run holding it.",
    access: "operator",
    scope: agentScope,
    response: {
      status: 200,
      description: "The agent's id and its kept session (null when none is kept).",
      schema: AgentSessionAnswerSchema,
    },
    async handle({ ctx, scope }) {
      const row = await ctx.store.getAgentSession(scope.agent.id);
      return { agentId: scope.agent.id, session: row ? agentSessionView(row) : null };
    },
  }),
  route({
    method: "post",
    path: "/api/agents/{id}/session/reset",
    summary:
      "Forget the agent's kept session: its next wake starts a fresh one, with no handoff. Refused while a run of the agent holds the session, unless force says that run died with its process (a recovered run has released it already).",
    access: "operator",
    scope: agentScope,
    body: ResetSessionBody,
    response: {
      status: 200,
      description: "Whether a session was forgotten (false when none was kept), and which.",
      schema: SessionResetViewSchema,
    },
    errors: { 409: "A run of the agent holds the session. Nothing was written." },
    async handle({ ctx, scope, body }) {
      const { agent, reset, previous } = await resetAgentSession(ctx.store, scope.agent.id, {
        force: body.force ?? false,
      });
      return { agentId: agent.id, reset, previousSessionId: previous?.sessionId ?? null };
    },
  }),
];
