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

/**
 * DATA_DIR/agents/AGENT_ID/workspace (the agent's folder holds its memory and sessions beside it, out
 * of the workspace's reach), or ROOT/AGENT_ID when the company names a root; absolute. Creates nothing.
 */
export function workspaceOf(location: WorkspaceLocation): string {
  if (location.root !== undefined) return resolve(location.root, location.agentId);
  const base = location.dataDir !== undefined ? location.dataDir : join(tmpdir(), "cadre");
  return resolve(base, "agents", location.agentId, "workspace");
}
