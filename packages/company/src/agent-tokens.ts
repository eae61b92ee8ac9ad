// Agent-scoped API tokens: random secrets shown once, stored only as a SHA-256 hash, revocable.
// They exist for agents that act over HTTP instead of through in-process tools — today the legacy
// profile's bash tool (C4-7); the server's key route mints them for agents run elsewhere.
import { createHash, randomBytes } from "node:crypto";
import { NotFoundError, UserInputError } from "@cadre/core";
import { Text } from "@cadre/model";
import type { ApiTokenRow, StoreQueries } from "@cadre/store";
import { Type } from "typebox";
import { newId } from "./ids.js";
import { checkInput } from "./input.js";

export const AGENT_TOKEN_PREFIX = "cadre_agt_";
export const OPERATOR_TOKEN_PREFIX = "cadre_op_";

/** 256 random bits, URL-safe, with a prefix that says what the token is (and lets scanners find leaks). */
export function generateToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

/** Tokens have 256 bits of entropy, so one unsalted SHA-256 is enough to make a stolen table useless. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export const KeyLabel = Text({
  maxLength: 100,
  description: "What the key is for, e.g. the host the agent runs on.",
});

export interface MintedToken {
  /** The secret; returned once and never stored. */
  token: string;
  row: ApiTokenRow;
}

export async function mintAgentToken(
  q: StoreQueries,
  input: { agentId: string; label?: string; runId?: string | null },
): Promise<MintedToken> {
  const label =
    input.label === undefined || input.label === ""
      ? ""
      : checkInput("key", Type.Object({ label: KeyLabel }), { label: input.label }).label;
  const agent = await q.getAgent(input.agentId);
  if (!agent) throw new NotFoundError(`agent ${input.agentId} not found`);
  if (agent.status !== "active")
    throw new UserInputError(
      `agent ${agent.name} (${agent.id}) is ${agent.status}; only active agents get keys`,
    );
  const token = generateToken(AGENT_TOKEN_PREFIX);
  const row = await q.insertApiToken({
    id: newId("key"),
    companyId: agent.companyId,
    agentId: agent.id,
    runId: input.runId ?? null,
    label,
    hash: hashToken(token),
  });
  return { token, row };
}
