// The event streams open per credential, so that revoking an agent key, or terminating its agent,
// ends that principal's streams at once: nothing committed after the revocation reaches them.
// (Revocations made by another process — a recovered run's tokens, another API instance — are
// caught by the stream itself, which checks its credential before each page it writes and at each
// heartbeat, so an idle one ends too.)
import type { Principal } from "../auth/principal.js";

type AgentPrincipal = Extract<Principal, { kind: "agent" }>;

export class PrincipalStreams {
  private readonly open = new Set<{ principal: AgentPrincipal; close: (reason: string) => void }>();

  /** Registers an agent's open stream; returns the function that forgets it once it ends. */
  register(principal: AgentPrincipal, close: (reason: string) => void): () => void {
    const entry = { principal, close };
    this.open.add(entry);
    return () => this.open.delete(entry);
  }

  /** Ends the streams opened with this key; returns how many. */
  closeToken(tokenId: string, reason = "the key this stream was opened with was revoked"): number {
    return this.closeWhere((p) => p.tokenId === tokenId, reason);
  }

  /** Ends every stream of this agent (its keys are revoked with it); returns how many. */
  closeAgent(agentId: string, reason = "the agent this stream acts as was removed"): number {
    return this.closeWhere((p) => p.agentId === agentId, reason);
  }

  get size(): number {
    return this.open.size;
  }

  private closeWhere(match: (p: AgentPrincipal) => boolean, reason: string): number {
    let closed = 0;
    for (const entry of [...this.open]) {
      if (!match(entry.principal)) continue;
      this.open.delete(entry);
      entry.close(reason);
      closed++;
    }
    return closed;
  }
}
