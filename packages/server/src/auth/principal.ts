// Who is calling: the operator (one token, from the environment or generated at start, never
// stored) or an agent (a token minted by POST /api/agents/{id}/keys, stored hashed, revocable).
import { timingSafeEqual } from "node:crypto";
import { hashToken } from "@cadre/company";
import type { StoreQueries } from "@cadre/store";
import { unauthorized } from "../http/errors.js";

export type Principal =
  | { kind: "operator" }
  | { kind: "agent"; agentId: string; companyId: string; runId: string | null; tokenId: string };

/** A request's caller: anonymous only on public routes. */
export type Caller = Principal | { kind: "anonymous" };

/** Compares hashes, not tokens: equal length always, and no early exit on the first differing byte. */
function sameSecret(candidate: string, expectedHash: Buffer): boolean {
  return timingSafeEqual(Buffer.from(hashToken(candidate), "hex"), expectedHash);
}

export class Authenticator {
  private readonly operatorHash: Buffer;

  constructor(
    private readonly store: Pick<StoreQueries, "findApiToken" | "getAgent" | "listApiTokens">,
    operatorToken: string,
  ) {
    if (operatorToken.length < 16) throw new Error("the operator token must be at least 16 characters");
    this.operatorHash = Buffer.from(hashToken(operatorToken), "hex");
  }

  /** The caller of a request with this Authorization header; throws 401 when there is none or it is not valid. */
  async authenticate(header: string | undefined): Promise<Principal> {
    if (header === undefined || header === "")
      throw unauthorized("missing credentials: send Authorization: Bearer TOKEN");
    const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header);
    if (!m) throw unauthorized("malformed Authorization header: expected Bearer TOKEN");
    const token = m[1] as string;
    if (sameSecret(token, this.operatorHash)) return { kind: "operator" };
    const row = await this.store.findApiToken(hashToken(token));
    // One message for unknown, revoked and orphaned tokens: a caller learns nothing by probing.
    const invalid = unauthorized("the token is not valid: it is unknown or was revoked");
    if (!row || row.revokedAt !== null) throw invalid;
    const agent = await this.store.getAgent(row.agentId);
    if (!agent || agent.status !== "active") throw invalid;
    return {
      kind: "agent",
      agentId: row.agentId,
      companyId: row.companyId,
      runId: row.runId,
      tokenId: row.id,
    };
  }

  /**
   * Whether an authenticated principal still holds: its key not revoked, its agent still active.
   * For what outlives one request (an event stream), checked again before each write.
   */
  async stillValid(principal: Principal): Promise<boolean> {
    if (principal.kind === "operator") return true;
    const [tokens, agent] = await Promise.all([
      this.store.listApiTokens(principal.agentId),
      this.store.getAgent(principal.agentId),
    ]);
    const token = tokens.find((t) => t.id === principal.tokenId);
    return token !== undefined && token.revokedAt === null && agent?.status === "active";
  }
}
