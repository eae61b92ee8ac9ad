// Where an agent's workspace lives: the directory its harness works in and the only place its file
// tools may read and write. A path function only, so that hiring, the harness sessions and the
// deliverables that attach files from a workspace all agree on one place.
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export interface WorkspaceLocation {
  /** The data directory (`--data`); without one, a folder under the OS temp dir. */
  dataDir?: string | undefined;
  /** A root the operator chose for the company's workspaces; wins over the data directory. */
  root?: string | undefined;
  companyId: string;
  agentId: string;
}

/** ROOT/AGENT_ID, or DATA_DIR/workspaces/COMPANY_ID/AGENT_ID, absolute. Creates nothing. */
export function workspaceOf(location: WorkspaceLocation): string {
  if (location.root !== undefined) return resolve(location.root, location.agentId);
  const base = location.dataDir !== undefined ? location.dataDir : join(tmpdir(), "cadre");
  return resolve(base, "workspaces", location.companyId, location.agentId);
}
