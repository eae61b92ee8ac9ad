// AGENT as every command takes it: an agent id, or a name as `cadre agents list` shows it (compared
// on the name key: case, width and invisible characters folded), as `tasks assign` and `schedules`
// always took it. A name is looked up among the company's active agents; an unknown ref is refused
// naming the agents there are.
import { nameKey } from "@cadre/model";
import { UsageError } from "../io.js";
import { allAgents } from "./pages.js";
import type { OperatorPort } from "./port.js";

const LOOKS_LIKE_ID = /^agt_[0-9a-f]+$/;

export async function agentIdOf(port: OperatorPort, ref: string, companyId?: string): Promise<string> {
  if (LOOKS_LIKE_ID.test(ref)) return ref;
  // No company to look in (none yet, or several and none named): the ref goes through as an id.
  const agents = await allAgents(port, companyId !== undefined ? { companyId } : {}).catch(() => []);
  const key = nameKey(ref);
  const named = agents.find((a) => nameKey(a.name) === key);
  if (named) return named.id;
  // Not a name: an id of another shape (or a terminated agent's), as before.
  const byId = await port.agent(ref).catch(() => undefined);
  if (byId) return byId.id;
  throw new UsageError(
    `"${ref}" is not an agent id or the name of an active agent${agents.length > 0 ? ` (they are: ${agents.map((a) => a.name).join(", ")})` : ""}; see cadre agents list`,
  );
}
