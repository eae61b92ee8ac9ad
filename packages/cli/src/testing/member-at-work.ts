// For the tests of a member's workspace and tools on one connector: a company whose CEO and one
// lead ("Survey Lead") run on that connector, its strategy approved, and one task assigned to the
// lead by the CEO — the state in which the lead's next wake works its task.
import {
  createCompany,
  createTask,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
  refreshReadiness,
} from "@cadre/company";
import type { Store } from "@cadre/store";

export interface MemberAtWork {
  companyId: string;
  ceo: string;
  lead: string;
  taskId: string;
}

export async function memberAtWork(
  store: Store,
  options: {
    dataDir: string;
    connector: NonNullable<Parameters<typeof createCompany>[1]["connectors"]>[number];
    /** The connector's id (its kind unless it names one). */
    connectorId: string;
    env: Record<string, string>;
    /** The lead's model; the CEO's when omitted. */
    model?: string;
  },
): Promise<MemberAtWork> {
  const { connector, connectorId, env } = options;
  const company = await createCompany(store, {
    name: "Northwind Robotics",
    goal: "Build autonomous warehouse robots.",
    connectors: [connector],
    ceoConnectorId: connectorId,
    env,
  });
  await refreshReadiness(await store.listConnectors(company.id), env);
  const { ceo } = await loadCompanyState(store, company.id);
  const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null, env };
  const hired = await hireAgent(
    store,
    { ...operator, dataDir: options.dataDir },
    {
      name: "Survey Lead",
      role: "Survey Lead",
      description: "Surveys the warehouse.",
      connectorId,
      model: options.model ?? ceo.model,
    },
  );
  if (!hired.ok || !("agentId" in hired.value)) throw new Error(JSON.stringify(hired));
  const asCeo = { ...operator, agentId: ceo.id, via: "tool" as const };
  const filed = await fileApproval(store, asCeo, {
    type: "approve_ceo_strategy",
    title: "Plan",
    payload: "# Plan",
  });
  if (!filed.ok) throw new Error(filed.message);
  await decideApproval(store, filed.value.approvalId, "approve", null);
  const task = await createTask(store, asCeo, { title: "Survey the warehouse", assignee: "Survey Lead" });
  if (!task.ok) throw new Error(task.message);
  return { companyId: company.id, ceo: ceo.id, lead: hired.value.agentId, taskId: task.value.taskId };
}
