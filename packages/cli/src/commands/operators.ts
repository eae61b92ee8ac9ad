// `cadre operators add|list|revoke` and `cadre operators whoami`: the named people who sign in to
// the API and the dashboard, each with a role and optionally limited to some companies. Locally
// (the data directory's holder is the owner) or through a running API (an owner's token).
import { addOperator, revokeOperator } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { isOneOf, OPERATOR_ROLES } from "@cadre/model";
import type { OperatorRow } from "@cadre/store";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import { callApi } from "../client/api.js";
import type { ServerTarget } from "../client/server-option.js";
import { openData } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const OPERATORS_HELP = `Usage:
  cadre operators add NAME --role owner|operator|viewer [--company ID]… [--json]
  cadre operators list [--json]
  cadre operators revoke NAME [--json]
  cadre operators whoami [--json]

Named operators sign in to the API and the dashboard with a token of their own (shown once by add,
stored hashed). Roles: a viewer reads; an operator also decides approvals, acts on tasks and wakes
agents; an owner also manages connectors, budgets, prices, keys and operators. --company (repeat it)
limits an operator to those companies; without it, every company. The token \`cadre serve\` prints (or
CADRE_OPERATOR_TOKEN) stays the bootstrap owner, recorded as "operator". revoke stops a token at once.
NAME: 1–40 lower-case letters, digits, "." or "-", starting with a letter.
--json: add prints { id, name, role, companies, token }; list the operators; revoke the one revoked;
whoami { kind, name, role, companies }.
${DATABASE_HELP}
${SERVER_HELP}`;

const SERVER_OPERATORS = new Set(["add", "list", "revoke", "whoami"]);

function view(o: OperatorRow) {
  return {
    id: o.id,
    name: o.name,
    role: o.role,
    companies: o.companyIds,
    createdAt: o.createdAt,
    revokedAt: o.revokedAt,
  };
}

const line = (o: { name: string; role: string; companies: string[] | null; revokedAt: string | null }) =>
  `${o.name.padEnd(20)} ${o.role.padEnd(9)} ${o.companies ? o.companies.join(", ") : "every company"}${o.revokedAt ? `  (revoked ${o.revokedAt})` : ""}`;

export async function operatorsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${OPERATORS_HELP}\n`), sub ? 0 : 2);
  if (!SERVER_OPERATORS.has(sub))
    throw new UsageError(`operators: unknown subcommand "${sub}"; use add, list, revoke or whoami`);
  const options = {
    ...STORE_OPTIONS,
    role: { type: "string" },
    company: { type: "string", multiple: true },
  } as const;
  const { values, positionals } = parse(
    `operators ${sub}`,
    rest,
    options,
    sub === "add" || sub === "revoke" ? 1 : 0,
  );
  if (values.help) return (io.out(`${OPERATORS_HELP}\n`), 0);
  if (sub !== "add" && (values.role !== undefined || values.company !== undefined))
    throw new UsageError(`operators ${sub}: --role and --company belong to operators add`);
  const name = positionals[0];
  if ((sub === "add" || sub === "revoke") && !name)
    throw new UsageError(`operators ${sub}: NAME is required`);
  if (sub === "add") {
    if (values.role === undefined)
      throw new UsageError(`operators add: --role is required (${OPERATOR_ROLES.join(", ")})`);
    if (!isOneOf(OPERATOR_ROLES, values.role))
      throw new UserInputError(`--role must be one of ${OPERATOR_ROLES.join(", ")} (got "${values.role}")`, {
        role: OPERATOR_ROLES.join(" | "),
      });
  }
  const out = (json: unknown, text: string) =>
    io.out(values.json ? `${JSON.stringify(json)}\n` : `${text}\n`);

  if (server) {
    if (values.data !== undefined || values.database !== undefined)
      throw new UsageError(
        "--data and --database have no meaning with --server (the server keeps its own data)",
      );
    if (sub === "whoami") {
      const me = await callApi(server, "GET /api/me");
      const { may: _may, ...who } = me;
      return (
        out(who, `${me.name} (${me.role}; ${me.companies ? me.companies.join(", ") : "every company"})`),
        0
      );
    }
    if (sub === "list") {
      const all = await callApi(server, "GET /api/operators");
      return (
        out(
          all,
          all.length
            ? all.map(line).join("\n")
            : "no named operators yet (cadre operators add NAME --role …)",
        ),
        0
      );
    }
    if (sub === "revoke") {
      const revoked = await callApi(server, "DELETE /api/operators/{name}", {
        params: { name: name as string },
      });
      return (out(revoked, `${revoked.name}: revoked; its token no longer works`), 0);
    }
    const added = await callApi(server, "POST /api/operators", {
      body: {
        name: name as string,
        role: values.role as (typeof OPERATOR_ROLES)[number],
        companies: values.company ?? [],
      },
    });
    return (out(added, addedText(added)), 0);
  }

  if (sub === "whoami") {
    const who = { kind: "operator", name: "operator", role: "owner", companies: null };
    return (out(who, "operator (owner; every company): the local data directory's holder"), 0);
  }
  const { store } = await openData(values, io.env, sub === "list" ? "read" : "write");
  try {
    if (sub === "list") {
      const all = (await store.listOperators()).map(view);
      return (
        out(
          all,
          all.length
            ? all.map(line).join("\n")
            : "no named operators yet (cadre operators add NAME --role …)",
        ),
        0
      );
    }
    if (sub === "revoke") {
      const revoked = view(await revokeOperator(store, name as string));
      return (out(revoked, `${revoked.name}: revoked; its token no longer works`), 0);
    }
    const { operator, token } = await addOperator(store, {
      name: name as string,
      role: values.role as string,
      companies: values.company ?? [],
    });
    const added = { ...view(operator), token };
    return (out(added, addedText(added)), 0);
  } finally {
    await store.close();
  }
}

function addedText(o: { name: string; role: string; companies: string[] | null; token: string }): string {
  return `${o.name}: ${o.role} of ${o.companies ? o.companies.join(", ") : "every company"}\ntoken: ${o.token}\n(shown once; sign in with it, or use --server URL --token TOKEN)`;
}
