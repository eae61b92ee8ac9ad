// `cadre agents list|set-model|terminate|keys`, rendered once for both adapters.
import type {
  AgentView,
  KeyView,
  MintedKeyView,
  ModelChangeView,
  TerminationView,
} from "@cadre/server/views";
import { table } from "./table.js";

/** Aligned columns under a header; STATUS only when one is not active. */
export function agentsText(agents: readonly AgentView[]): string {
  if (agents.length === 0) return "no agents\n";
  const withStatus = agents.some((a) => a.status !== "active");
  return table([
    ["ID", "NAME", "ROLE", "DEPARTMENT", "CONNECTOR/MODEL", "VIA", ...(withStatus ? ["STATUS"] : [])],
    ...agents.map((a) => [
      a.id,
      a.name,
      a.role,
      a.department ?? "-",
      `${a.connectorId}/${a.model}`,
      a.via,
      ...(withStatus ? [a.status] : []),
    ]),
  ]);
}

/** One line saying what a model change did: to the live session, else to the kept one (MC-13). */
export function modelChangeText(change: ModelChangeView): string {
  const who = `${change.agent.name} (${change.agent.id})`;
  if (!change.changed) return `${who} already runs ${change.agent.model}; nothing changed\n`;
  const session = change.session;
  const next =
    change.live !== "no live session"
      ? `its running session switched too (${change.live})`
      : session.action === "handoff-then-switch"
        ? `its session ${session.fromSession ?? ""} was closed and a ${session.handoffBytes ?? 0}-byte handoff left: the next wake starts fresh from it on the new model (${session.reason})`
        : session.action === "switch"
          ? `its next wake resumes its session on it (${session.reason})`
          : "its next wake starts on it";
  const where =
    change.fromConnectorId !== undefined
      ? `moved from connector ${change.fromConnectorId} to ${change.agent.connectorId}`
      : `on connector ${change.agent.connectorId}`;
  return `${who}: ${change.from} → ${change.agent.model} ${where}; ${next}\n`;
}

/** The termination, the tasks it gave back and to whom, and the next step: the wakes it made due. */
export function terminatedText(t: TerminationView): string {
  const lines = [`${t.name} (${t.id}) is terminated; its keys are revoked and it is no longer woken`];
  if (t.wakesCancelled > 0)
    lines.push(`${t.wakesCancelled} wake reason(s) that were waiting for ${t.name} are cancelled`);
  if (t.tasksReturned.length === 0) lines.push(`${t.name} had no open tasks`);
  else {
    lines.push(`${t.tasksReturned.length} open task(s) of ${t.name} went back, each to its creator:`);
    for (const r of t.tasksReturned) lines.push(`  ${r.taskId}  "${r.title}" → ${r.toName}`);
    const woken = [...new Set(t.tasksReturned.map((r) => r.toName))].join(", ");
    lines.push(
      `${woken} now has a wake due for them: run it with \`cadre run\` (or \`cadre run --until-idle\`)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

export function keysText(agentId: string, keys: readonly KeyView[]): string {
  if (keys.length === 0) return `agent ${agentId} has no keys\n`;
  return table(
    keys.map((k) => [
      k.id,
      k.revokedAt ? `revoked ${k.revokedAt}` : "active",
      `created ${k.createdAt}`,
      k.runId ? `run ${k.runId}` : "operator",
      k.label ? `"${k.label}"` : "",
    ]),
  );
}

export function mintedKeyText(key: MintedKeyView): string {
  return `key ${key.id} for agent ${key.agentId}${key.label ? ` ("${key.label}")` : ""}\ntoken: ${key.token}\nThe token is shown only now; the API keeps its hash. Revoke it with \`cadre agents keys revoke ${key.agentId} ${key.id}\`.\n`;
}

export function revokedKeyText(key: KeyView): string {
  return `key ${key.id} of agent ${key.agentId} is revoked (${key.revokedAt ?? "now"}); event streams opened with it end\n`;
}
