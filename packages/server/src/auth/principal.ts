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
    private readonly store: Pick<StoreQueries, "findApiTokenWithAgent" | "getAgent" | "listApiTokens">,
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
    if (timingSafeEqual(Buffer.from(hash, "hex"), this.operatorHash)) return { kind: "operator" };
    const cached = this.cache.get(hash);
    if (cached && cached.until > Date.now()) return cached.principal;
    if (cached) this.cache.delete(hash);
    const generation = this.generation;
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
    if (generation === this.generation && this.cacheMs > 0) {
      // Bounded: past a few thousand live agent tokens, start over rather than grow.
      if (this.cache.size >= 10_000) this.cache.clear();
      this.cache.set(hash, { principal, until: Date.now() + this.cacheMs });
    }
    return principal;
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
