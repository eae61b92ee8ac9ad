// The company thread with the CEO: the operator writes (which wakes the CEO, decided
// in code: operator_message), everyone with access to the company reads. Each message is also a
// `message.posted` domain event on GET /api/companies/{id}/events, which is how the dashboard and
// `cadre chat follow --server` see a reply arrive. Writing here decides nothing (OP-6): no mode,
// tool offer or approval is read from the thread.
import { listMessages, postMessageSchema, postOperatorMessage } from "@cadre/company";
import { Type } from "typebox";
import { route } from "./define.js";
import { idQuery, limitQuery } from "./queries.js";
import { companyScope } from "./scopes.js";

const strict = { additionalProperties: false } as const;
const MAX_PAGE = 500;

export const MessageViewSchema = Type.Object(
  {
    id: Type.Integer({ description: "Its place in the thread; `after` pages by it." }),
    companyId: Type.String(),
    from: Type.String({ description: '"operator", or the agent id of the CEO that wrote it.' }),
    fromName: Type.String({
      description:
        'The named operator who wrote it, "the operator" (an unnamed operator), or the agent\'s name.',
    }),
    text: Type.String(),
    runId: Type.Union([Type.String(), Type.Null()], { description: "The run that wrote a reply." }),
    at: Type.String(),
  },
  strict,
);

export const messageRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/messages",
    summary:
      "The company's thread between the operator and the CEO, oldest first (?after=ID&limit=N). New messages also arrive on the company's event stream as message.posted.",
    access: "company",
    scope: companyScope,
    query: { after: "a message id to read after", limit: `1..${MAX_PAGE}` },
    response: {
      status: 200,
      description: "A page of messages and the cursor of the next (null: no more).",
      schema: Type.Object(
        { items: Type.Array(MessageViewSchema), nextCursor: Type.Union([Type.String(), Type.Null()]) },
        strict,
      ),
    },
    async handle({ c, ctx, scope }) {
      const after = idQuery("after", c.req.query("after"));
      const limit = limitQuery(c.req.query("limit"), MAX_PAGE);
      return listMessages(ctx.store, scope.companyId, { ...(after !== undefined ? { after } : {}), limit });
    },
  }),
  route({
    method: "post",
    path: "/api/companies/{id}/messages",
    summary:
      "Write to the CEO (operator only). It wakes the CEO (operator_message), who answers in the thread; the message changes no mode, tool or approval.",
    access: "operator",
    scope: companyScope,
    body: postMessageSchema,
    response: {
      status: 201,
      description: "The message as posted, and the agents it wakes (the CEO).",
      schema: Type.Object({ message: MessageViewSchema, wakes: Type.Array(Type.String()) }, strict),
    },
    async handle({ ctx, scope, body, principal }) {
      // A named operator's message is shown with their name.
      const by =
        principal.kind === "operator" && principal.operatorId !== null
          ? { operatorName: principal.name }
          : {};
      const posted = await postOperatorMessage(ctx.store, scope.companyId, body, by);
      // The CEO is woken now rather than at the next due-work pass.
      for (const agentId of posted.wakes) void ctx.wakes.wakeDue(agentId).catch(() => {});
      return posted;
    },
  }),
];
