// An agent's session across wakes: what is kept (the native session the next wake continues, or a
// pending handoff), and the operator's reset (the next wake starts fresh). Refused with 409 while
// a run of the agent holds the session; the reset and its activity are one transaction.
import { resetAgentSession } from "@cadre/company";
import { route } from "./define.js";
import { type AgentScope, agentScope } from "./scopes.js";

export const sessionRoutes = [
  route<AgentScope>({
    method: "get",
    path: "/api/agents/{id}/session",
    summary:
      "The agent's kept session: harness, native session id (and Pi session file), model and connector it was built for, Pi's frozen reserveTokens, a pending handoff, whether it rolled over, the run holding it.",
    access: "operator",
    scope: agentScope,
    responses: { 200: "{ agentId, session }: session is null when none is kept." },
    async handle({ c, ctx, scope }) {
      const row = await ctx.store.getAgentSession(scope.agent.id);
      if (!row) return c.json({ agentId: scope.agent.id, session: null });
      const { digest: _digest, prompt: _prompt, vendorTotals: _totals, ...session } = row;
      return c.json({ agentId: scope.agent.id, session });
    },
  }),
  route<AgentScope>({
    method: "post",
    path: "/api/agents/{id}/session/reset",
    summary:
      "Forget the agent's kept session: its next wake starts a fresh one, with no handoff. Refused while a run of the agent holds the session, unless ?force=true says that run died with its process.",
    access: "operator",
    scope: agentScope,
    query: { force: "true: release a session held by a run that died with its process" },
    responses: {
      200: "{ agentId, reset, previousSessionId }: reset is false when no session was kept.",
      409: "A run of the agent holds the session. Nothing was written.",
    },
    async handle({ c, ctx, scope }) {
      const force = c.req.query("force") === "true";
      const { agent, reset, previous } = await resetAgentSession(ctx.store, scope.agent.id, { force });
      return c.json({ agentId: agent.id, reset, previousSessionId: previous?.sessionId ?? null });
    },
  }),
];
