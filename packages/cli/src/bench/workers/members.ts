// The company the worker benchmark wakes: operating companies (offline CEO hired a team, strategy
// approved) whose members run on an `openai-compatible` connector pointed at a stand-in model
// (@cadre/standin, OFFLINE) that answers every call after a fixed latency, as a provider keeps a
// wake waiting: I/O-bound wakes.
import {
  addConnector,
  createCompany,
  decideApproval,
  loadCompanyState,
  setAgentModel,
  wakeAgent,
} from "@cadre/company";
import type { Store } from "@cadre/store";

export const STANDIN_MODEL = "standin-chat-1b";

/** Members on the stand-in, at least `count`, over as many companies as that takes. */
export async function membersOnStandin(store: Store, baseUrl: string, count: number): Promise<string[]> {
  const members: string[] = [];
  for (let c = 0; members.length < count; c++) {
    const company = await createCompany(store, { name: `Bench Co ${c}`, goal: "Build warehouse robots." });
    const { ceo } = await loadCompanyState(store, company.id);
    await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: c + 1 });
    const [strategy] = await store.listApprovals(company.id);
    if (strategy) await decideApproval(store, strategy.id, "approve", null);
    await addConnector(store, company.id, {
      id: "standin",
      kind: "openai-compatible",
      config: { baseUrl, models: [{ id: STANDIN_MODEL, contextWindow: 128_000, maxOutput: 4096 }] },
    });
    const hired = (await store.listAgents(company.id)).filter((a) => !a.isCeo);
    if (hired.length === 0) throw new Error("the offline CEO hired nobody: no members to wake");
    for (const m of hired) {
      await setAgentModel(store, { agentId: m.id, model: STANDIN_MODEL, connectorId: "standin" });
      members.push(m.id);
    }
  }
  return members.slice(0, count);
}
