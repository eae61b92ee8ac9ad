// An agent's workspace over its life: created when it is hired (and again, if missing, before any
// session works in it), moved to the company's archive when it is terminated — never deleted: what
// it made stays for the operator to read.
import { existsSync, mkdirSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import type { AgentRow, CompanyRow } from "@cadre/store";
import { type WorkspaceLocation, workspaceOf } from "./workspace.js";

/** Where an agent's workspace is, from its company's settings (`workspaceRoot`) and the data directory. */
export function agentWorkspace(
  company: Pick<CompanyRow, "settings">,
  agent: Pick<AgentRow, "id" | "companyId">,
  dataDir: string | undefined,
): WorkspaceLocation {
  const root = company.settings.workspaceRoot;
  return {
    dataDir,
    ...(root !== undefined ? { root } : {}),
    companyId: agent.companyId,
    agentId: agent.id,
  };
}

/** Creates the workspace if it is not there; returns its path. */
export function ensureWorkspace(location: WorkspaceLocation): string {
  const path = workspaceOf(location);
  mkdirSync(path, { recursive: true });
  return path;
}

/**
 * Where a terminated agent's workspace is kept: beside the workspaces under the root the company
 * names (ROOT/archive/AGENT_ID), else DATA_DIR/archive/AGENT_ID.
 */
export function archiveOf(location: WorkspaceLocation): string {
  const workspace = workspaceOf(location);
  const base = location.root !== undefined ? dirname(workspace) : dirname(dirname(dirname(workspace)));
  return join(base, "archive", location.agentId);
}

/**
 * Moves a terminated agent's workspace into the archive (a second archive of one agent gets a
 * numbered name); returns where it went, or undefined when it had none.
 */
export function archiveWorkspace(location: WorkspaceLocation): string | undefined {
  const workspace = workspaceOf(location);
  if (!existsSync(workspace)) return undefined;
  const target = archiveOf(location);
  let to = target;
  for (let n = 2; existsSync(to); n++) to = `${target}.${n}`;
  mkdirSync(dirname(to), { recursive: true });
  renameSync(workspace, to);
  return to;
}
