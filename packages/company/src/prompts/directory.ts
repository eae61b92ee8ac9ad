// Whom an agent's company directory lists. A member: itself, its manager, its peers (the same
// manager) and its direct reports, the first of each group by creation time; the CEO: the first of
// the whole team. Everyone else is counted, not listed, so a prompt stays the same size however
// large the company grows, and changes only when the listed part of the team or the count of the
// others does. The same directory comes from the whole team (directoryFromTeam) or from the
// store's bounded reads (readDirectory), which never read the team beyond what is listed.
import type { AgentRow, StoreQueries } from "@cadre/store";

/** How many of each group a directory lists. */
export const DIRECTORY_LIMITS = { peers: 25, reports: 25, ceo: 50 } as const;

export interface Directory {
  /** The agents listed, the agent itself among them, by creation time, then id. */
  listed: AgentRow[];
  /** The company's other active agents, not listed. */
  unlisted: number;
}

const byCreation = (a: AgentRow, b: AgentRow): number =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) : a.createdAt < b.createdAt ? -1 : 1;

/**
 * `others`: the company's active agents other than `self`; `order`: the team in its order, when
 * the caller holds it (else creation time, then id — the store's order).
 */
function assemble(
  self: AgentRow,
  groups: readonly (readonly AgentRow[])[],
  others: number,
  order?: readonly AgentRow[],
): Directory {
  const listed = new Map<string, AgentRow>([[self.id, self]]);
  for (const group of groups) for (const a of group) if (!listed.has(a.id)) listed.set(a.id, a);
  const rows = order
    ? [...order.filter((a) => listed.has(a.id)), ...(order.some((a) => a.id === self.id) ? [] : [self])]
    : [...listed.values()].sort(byCreation);
  return { listed: rows, unlisted: others - (listed.size - 1) };
}

/** The directory from the whole active team (in creation order), for callers that hold it. */
export function directoryFromTeam(team: readonly AgentRow[], self: AgentRow): Directory {
  const others = team.filter((a) => a.id !== self.id);
  if (self.isCeo) return assemble(self, [others.slice(0, DIRECTORY_LIMITS.ceo)], others.length, team);
  const managerId = self.reportsTo ?? team.find((a) => a.isCeo)?.id ?? null;
  const manager = others.filter((a) => a.id === managerId);
  const peers =
    self.reportsTo === null
      ? []
      : others.filter((a) => a.reportsTo === self.reportsTo).slice(0, DIRECTORY_LIMITS.peers);
  const reports = others.filter((a) => a.reportsTo === self.id).slice(0, DIRECTORY_LIMITS.reports);
  return assemble(self, [manager, peers, reports], others.length, team);
}

/**
 * The same directory read from the store: the manager by id and the first peers and reports with
 * their counts (listTeam), never the whole team. `activeAgents` is the company's count of active
 * agents and `ceoId` its CEO's (a member without a manager lists the CEO), both from the summary.
 */
export async function readDirectory(
  q: StoreQueries,
  self: AgentRow,
  ceoId: string | null,
  activeAgents: number,
): Promise<Directory> {
  const others = activeAgents - (self.status === "active" ? 1 : 0);
  if (self.isCeo) {
    const team = await q.listTeam(self.companyId, { exclude: self.id, limit: DIRECTORY_LIMITS.ceo });
    return assemble(self, [team.agents], others);
  }
  const managerId = self.reportsTo ?? ceoId;
  const manager = managerId === null || managerId === self.id ? undefined : await q.getAgent(managerId);
  const peers =
    self.reportsTo === null
      ? []
      : (
          await q.listTeam(self.companyId, {
            reportsTo: self.reportsTo,
            exclude: self.id,
            limit: DIRECTORY_LIMITS.peers,
          })
        ).agents;
  const reports = (await q.listTeam(self.companyId, { reportsTo: self.id, limit: DIRECTORY_LIMITS.reports }))
    .agents;
  const activeManager =
    manager && manager.status === "active" && manager.companyId === self.companyId ? [manager] : [];
  return assemble(self, [activeManager, peers, reports], others);
}
