// Named operators: people who sign in with a token of their own, with a role and,
// optionally, the companies they are limited to. The token is shown once and stored hashed; the
// environment's token stays the bootstrap owner, named "operator", whose rights never change.
import { ConflictStateError, NotFoundError, UserInputError } from "@cadre/core";
import { isOneOf, OPERATOR_ROLES, type OperatorRole } from "@cadre/model";
import { ConflictError, type OperatorRow, type Store } from "@cadre/store";
import { generateToken, hashToken } from "../agent-tokens.js";
import { newId } from "../ids.js";

/** What a named operator's token starts with (the bootstrap owner's generated token is cadre_op_…). */
export const NAMED_OPERATOR_TOKEN_PREFIX = "cadre_opr_";

/** The bootstrap owner's name: what the environment's token is recorded as. */
export const BOOTSTRAP_OPERATOR = "operator";

/** Names that already mean someone else in the records. */
const RESERVED = new Set([BOOTSTRAP_OPERATOR, "system"]);

/** Lower-case letters, digits, "." and "-", starting with a letter: never an agent id (those hold "_"). */
const NAME = /^[a-z][a-z0-9.-]{0,39}$/;

/** How a role ranks: each includes what the ones below it may do. */
export const ROLE_RANK: Record<OperatorRole, number> = { viewer: 0, operator: 1, owner: 2 };

export interface NewOperatorInput {
  name: string;
  role: string;
  /** Company ids the operator is limited to; empty or absent: every company. */
  companies?: readonly string[];
}

export interface AddedOperator {
  operator: OperatorRow;
  /** The secret, shown once. */
  token: string;
}

function checkName(name: string): void {
  if (!NAME.test(name))
    throw new UserInputError(
      `operator name "${name}" is not allowed: use 1–40 lower-case letters, digits, "." or "-", starting with a letter`,
      { name: "lower-case letters, digits, . and -, starting with a letter (at most 40)" },
    );
  if (RESERVED.has(name))
    throw new UserInputError(`operator name "${name}" is reserved; pick another`, {
      name: `not ${[...RESERVED].join(" or ")}`,
    });
}

/** Adds a named operator; the token is returned once. Nothing is written when the input is refused. */
export async function addOperator(store: Store, input: NewOperatorInput): Promise<AddedOperator> {
  checkName(input.name);
  if (!isOneOf(OPERATOR_ROLES, input.role))
    throw new UserInputError(`role must be one of ${OPERATOR_ROLES.join(", ")} (got "${input.role}")`, {
      role: OPERATOR_ROLES.join(" | "),
    });
  const companies = [...new Set(input.companies ?? [])];
  const token = generateToken(NAMED_OPERATOR_TOKEN_PREFIX);
  try {
    const operator = await store.transaction(async (tx) => {
      for (const id of companies)
        if (!(await tx.getCompany(id)))
          throw new UserInputError(
            `company ${id} does not exist; an operator is limited to existing companies`,
            {
              companies: "existing company ids",
            },
          );
      return tx.insertOperator({
        id: newId("opr"),
        name: input.name,
        role: input.role as OperatorRole,
        companyIds: companies.length > 0 ? companies : null,
        hash: hashToken(token),
      });
    });
    return { operator, token };
  } catch (error) {
    if (error instanceof ConflictError)
      throw new ConflictStateError(`an operator named "${input.name}" exists already; pick another name`);
    throw error;
  }
}

/** Revokes an operator by name or id: its token stops working at once. */
export async function revokeOperator(store: Store, ref: string): Promise<OperatorRow> {
  const all = await store.listOperators();
  const found = all.find((o) => o.name === ref || o.id === ref);
  if (!found) throw new NotFoundError(`no operator "${ref}"; see cadre operators list`);
  if (found.revokedAt !== null)
    throw new ConflictStateError(`operator ${found.name} was revoked already (${found.revokedAt})`);
  await store.revokeOperator(found.id);
  return {
    ...found,
    revokedAt: (await store.listOperators()).find((o) => o.id === found.id)?.revokedAt ?? null,
  };
}

/** Whether an operator of `role` limited to `companyIds` may act at `need` on `companyId` (undefined: no company). */
export function operatorMay(
  who: { role: OperatorRole; companyIds: readonly string[] | null },
  need: OperatorRole,
  companyId: string | undefined,
): boolean {
  if (ROLE_RANK[who.role] < ROLE_RANK[need]) return false;
  if (who.companyIds === null) return true;
  return companyId !== undefined && who.companyIds.includes(companyId);
}
