// People: who you are, the named operators (owners manage them), and the audit log (who did what).
import { addOperator, revokeOperator } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { OneOf, OPERATOR_ROLES } from "@cadre/model";
import type { AuditFilter, AuditRow, OperatorRow, StoreQueries } from "@cadre/store";
import { Type } from "typebox";
import type { Caller } from "../auth/principal.js";
import { route } from "./define.js";
import { idQuery, limitQuery } from "./queries.js";
import { companyScope } from "./scopes.js";

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const OperatorViewSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    role: OneOf(OPERATOR_ROLES),
    companies: Type.Union([Type.Array(Type.String()), Type.Null()], {
      description: "The companies the operator is limited to; null: every company.",
    }),
    createdAt: Type.String(),
    revokedAt: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const MeViewSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal("operator"), Type.Literal("agent")]),
    name: Type.String({ description: "The operator's name, or the agent's id." }),
    role: OneOf([...OPERATOR_ROLES, "agent"] as const),
    companies: Type.Union([Type.Array(Type.String()), Type.Null()]),
    /** What the role may do, in the dashboard's words: the dashboard shows only these actions. */
    may: Type.Object(
      { read: Type.Boolean(), act: Type.Boolean(), administer: Type.Boolean() },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const AuditRowSchema = Type.Object(
  {
    id: Type.Integer(),
    at: Type.String(),
    companyId: Nullable(Type.String()),
    actorType: Type.Union([Type.Literal("operator"), Type.Literal("agent"), Type.Literal("system")]),
    actorId: Nullable(Type.String()),
    actorName: Type.String(),
    action: Type.String(),
    target: Type.String(),
    summary: Type.String(),
    requestId: Nullable(Type.String()),
    runId: Nullable(Type.String()),
  },
  { additionalProperties: false },
);

export const AuditPageSchema = Type.Object(
  {
    items: Type.Array(AuditRowSchema),
    nextCursor: Type.Union([Type.String(), Type.Null()], {
      description: "Pass as ?after= for the next page.",
    }),
  },
  { additionalProperties: false },
);

export const NewOperatorBody = Type.Object(
  {
    name: Type.String({
      pattern: "^[a-z][a-z0-9.-]{0,39}$",
      description: "1–40 lower-case letters, digits, . and -, starting with a letter.",
    }),
    role: OneOf(OPERATOR_ROLES),
    companies: Type.Optional(
      Type.Array(Type.String({ pattern: "^[A-Za-z0-9_.-]{1,100}$", description: "A company id." }), {
        maxItems: 100,
        description: "The companies the operator is limited to; absent or empty: every company.",
      }),
    ),
  },
  { additionalProperties: false },
);

const operatorView = (o: OperatorRow) => ({
  id: o.id,
  name: o.name,
  role: o.role,
  companies: o.companyIds,
  createdAt: o.createdAt,
  revokedAt: o.revokedAt,
});

function meView(principal: Caller) {
  if (principal.kind === "agent")
    return {
      kind: "agent" as const,
      name: principal.agentId,
      role: "agent" as const,
      companies: [principal.companyId],
      may: { read: true, act: false, administer: false },
    };
  if (principal.kind !== "operator") throw new UserInputError("this route needs a token");
  return {
    kind: "operator" as const,
    name: principal.name,
    role: principal.role,
    companies: principal.companyIds,
    may: { read: true, act: principal.role !== "viewer", administer: principal.role === "owner" },
  };
}

const AUDIT_QUERY = {
  actor: "an operator's name, an agent's id or name, or system",
  since: "ISO time: rows at or after it",
  limit: "1..500 (default 100)",
  after: "the nextCursor of the previous page",
};

function sinceQuery(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (Number.isNaN(Date.parse(value)))
    throw new UserInputError(`since must be an ISO time, e.g. 2026-12-01T00:00:00Z (got "${value}")`, {
      since: "an ISO time",
    });
  return new Date(value).toISOString();
}

async function auditPage(
  store: StoreQueries,
  query: (name: string) => string | undefined,
  base: AuditFilter,
): Promise<{ items: AuditRow[]; nextCursor: string | null }> {
  const limit = limitQuery(query("limit"), 500);
  const after = idQuery("after", query("after"));
  const since = sinceQuery(query("since"));
  const actor = query("actor");
  const rows = await store.listAudit({
    ...base,
    ...(actor !== undefined ? { actor } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(after !== undefined ? { after } : {}),
    limit: limit + 1,
  });
  const items = rows.slice(0, limit);
  return { items, nextCursor: rows.length > limit ? String(items.at(-1)?.id) : null };
}

export const peopleRoutes = [
  route({
    method: "get",
    path: "/api/me",
    summary: "Who the token is: an operator (name, role, the companies it is limited to) or an agent.",
    access: "authenticated",
    response: { status: 200, description: "The caller.", schema: MeViewSchema },
    handle: ({ principal }) => meView(principal),
  }),
  route({
    method: "get",
    path: "/api/operators",
    summary: "The named operators, revoked ones too (owners of every company only).",
    access: "operator",
    role: "owner",
    response: { status: 200, description: "A list of operators.", schema: Type.Array(OperatorViewSchema) },
    async handle({ ctx }) {
      return (await ctx.store.listOperators()).map(operatorView);
    },
  }),
  route({
    method: "post",
    path: "/api/operators",
    summary:
      "Add a named operator with a role, optionally limited to some companies. The token is shown once.",
    access: "operator",
    role: "owner",
    body: NewOperatorBody,
    response: {
      status: 201,
      description: "The operator, with its token (shown only here).",
      schema: Type.Object(
        { ...OperatorViewSchema.properties, token: Type.String() },
        { additionalProperties: false },
      ),
    },
    errors: { 409: "An operator of that name exists." },
    async handle({ ctx, body }) {
      const { operator, token } = await addOperator(ctx.store, {
        name: body.name,
        role: body.role,
        ...(body.companies ? { companies: body.companies } : {}),
      });
      return { ...operatorView(operator), token };
    },
  }),
  route({
    method: "delete",
    path: "/api/operators/{name}",
    summary: "Revoke a named operator (by name or id): its token stops working at once.",
    access: "operator",
    role: "owner",
    response: { status: 200, description: "The operator, revoked.", schema: OperatorViewSchema },
    errors: { 409: "The operator was revoked already." },
    async handle({ ctx, params }) {
      return operatorView(await revokeOperator(ctx.store, params["name"] ?? ""));
    },
  }),
  route({
    method: "get",
    path: "/api/companies/{id}/audit",
    summary:
      "The company's audit log: every audited write, who made it (by name), what changed, the request.",
    access: "operator",
    scope: companyScope,
    query: AUDIT_QUERY,
    response: { status: 200, description: "A page of audit rows, oldest first.", schema: AuditPageSchema },
    handle: ({ c, ctx, scope }) =>
      auditPage(ctx.store, (n) => c.req.query(n), { companyId: scope.companyId }),
  }),
  route({
    method: "get",
    path: "/api/audit",
    summary:
      "The whole installation's audit log, operators' own changes included (operators of every company).",
    access: "operator",
    query: AUDIT_QUERY,
    response: { status: 200, description: "A page of audit rows, oldest first.", schema: AuditPageSchema },
    handle: ({ c, ctx }) => auditPage(ctx.store, (n) => c.req.query(n), {}),
  }),
];
