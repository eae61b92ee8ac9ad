// Who is calling: an operator — the bootstrap owner (one token, from the environment or generated
// at start, never stored) or a named one (`cadre operators add`, stored hashed, revocable) — or an
// agent (a token minted by POST /api/agents/{id}/keys, stored hashed, revocable).
import { timingSafeEqual } from "node:crypto";
import { AGENT_TOKEN_PREFIX, BOOTSTRAP_OPERATOR, hashToken } from "@cadre/company";
import type { OperatorRole } from "@cadre/model";
import type { StoreQueries } from "@cadre/store";
import { unauthorized } from "../http/errors.js";

export type Principal =
  | {
      kind: "operator";
      /** Null for the bootstrap owner (the environment's token). */
      operatorId: string | null;
      name: string;
      role: OperatorRole;
      /** The companies the operator is limited to; null: every company. */
      companyIds: string[] | null;
    }
  | { kind: "agent"; agentId: string; companyId: string; runId: string | null; tokenId: string };

/** The environment's token: the owner of every company. */
export const BOOTSTRAP_OWNER: Principal = {
  kind: "operator",
  operatorId: null,
  name: BOOTSTRAP_OPERATOR,
  role: "owner",
  companyIds: null,
};

/** A request's caller: anonymous only on public routes. */
export type Caller = Principal | { kind: "anonymous" };

/* Tokens are compared as hashes: equal length always, and no early exit on the first differing byte. */

/** How long a valid agent token's principal is kept (default): revocations elsewhere take this long at most. */
export const PRINCIPAL_CACHE_MS = 2_000;

interface CachedPrincipal {
  principal: Principal;
  until: number;
}

/**
 * Checks bearer tokens. A valid agent token's principal is kept for a short time (token hash →
 * principal), so a busy agent costs no store read per request. Every revocation or agent removal
 * made through this server's store forgets all of them at once (`invalidate`, called by
 * `revocationsOf`), before and after its commit; one made by another process is seen when the
 * entry runs out (PRINCIPAL_CACHE_MS), as an event stream's re-check before each page sees it.
 */
export class Authenticator {
  private readonly operatorHash: Buffer;
  private readonly cache = new Map<string, CachedPrincipal>();
  /** Bumped by every invalidation: a look-up that began before one does not fill the cache. */
  private generation = 0;

  constructor(
    private readonly store: Pick<
      StoreQueries,
      "findApiTokenWithAgent" | "getAgent" | "listApiTokens" | "findOperatorByHash" | "listOperators"
    >,
    operatorToken: string,
    private readonly cacheMs = PRINCIPAL_CACHE_MS,
  ) {
    if (operatorToken.length < 16) throw new Error("the operator token must be at least 16 characters");
    this.operatorHash = Buffer.from(hashToken(operatorToken), "hex");
  }

  /** Forgets every cached principal (a key was revoked or an agent removed). */
  invalidate(): void {
    this.generation++;
    this.cache.clear();
  }

  /** The caller of a request with this Authorization header; throws 401 when there is none or it is not valid. */
  async authenticate(header: string | undefined): Promise<Principal> {
    if (header === undefined || header === "")
      throw unauthorized("missing credentials: send Authorization: Bearer TOKEN");
    const m = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header);
    if (!m) throw unauthorized("malformed Authorization header: expected Bearer TOKEN");
    const token = m[1] as string;
    const hash = hashToken(token);
    if (timingSafeEqual(Buffer.from(hash, "hex"), this.operatorHash)) return BOOTSTRAP_OWNER;
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) return cached.principal;
    if (cached) this.cache.delete(hash);
    const generation = this.generation;
    if (!token.startsWith(AGENT_TOKEN_PREFIX)) {
      const operator = await this.store.findOperatorByHash(hash);
      if (operator) {
        if (operator.revokedAt !== null)
          throw unauthorized("the token is not valid: it is unknown or was revoked");
        const principal: Principal = {
          kind: "operator",
          operatorId: operator.id,
          name: operator.name,
          role: operator.role,
          companyIds: operator.companyIds,
        };
        this.remember(generation, hash, principal);
        return principal;
      }
    }
    // The token and its agent's status in one indexed read (a cache miss costs one round trip).
    const row = await this.store.findApiTokenWithAgent(hash);
    // One message for unknown, revoked and orphaned tokens: a caller learns nothing by probing.
    if (!row || row.revokedAt !== null || row.agentStatus !== "active")
      throw unauthorized("the token is not valid: it is unknown or was revoked");
    const principal: Principal = {
      kind: "agent",
      agentId: row.agentId,
      companyId: row.companyId,
      runId: row.runId,
      tokenId: row.id,
    };
    this.remember(generation, hash, principal);
    return principal;
  }

  private remember(generation: number, hash: string, principal: Principal): void {
    if (generation !== this.generation || this.cacheMs <= 0) return;
    // Bounded: past a few thousand live tokens, start over rather than grow.
    if (this.cache.size >= 10_000) this.cache.clear();
    this.cache.set(hash, { principal, until: Date.now() + this.cacheMs });
  }

  /**
   * Whether an authenticated principal still holds: its key not revoked, its agent still active.
   * For what outlives one request (an event stream), checked again before each write.
   */
  async stillValid(principal: Principal): Promise<boolean> {
    if (principal.kind === "operator") {
      if (principal.operatorId === null) return true;
      const operator = (await this.store.listOperators()).find((o) => o.id === principal.operatorId);
      return operator !== undefined && operator.revokedAt === null;
    }
    const [tokens, agent] = await Promise.all([
      this.store.listApiTokens(principal.agentId),
      this.store.getAgent(principal.agentId),
    ]);
    const token = tokens.find((t) => t.id === principal.tokenId);
    return token !== undefined && token.revokedAt === null && agent?.status === "active";
  }
}
