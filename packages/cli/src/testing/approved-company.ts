// For tests of what processes do with a due wake: a company whose CEO runs on an OFFLINE
// @cadre/standin server (the Chat Completions wire), with one member hired, and a strategy the
// operator approved, so that the CEO's \`approval_decided\` wake is due (no task exists yet).
import { join } from "node:path";
import {
  createCompany,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
  refreshReadiness,
  setAgentModel,
} from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { openStore } from "@cadre/store";
import { expect } from "vitest";
import { declareStandinModel, STANDIN_MODEL } from "./standin-model.js";

/** A company whose CEO (on the stand-in) filed a strategy the operator approved: its wake is due. */
export async function approvedStandinCompany(
  dir: string,
  baseUrl: string,
): Promise<{ ceo: string; requestId: string }> {
  await declareStandinModel(dir);
  await loadUserModels({ dataDir: dir, env: {} });
  const store = await openStore({ path: join(dir, "cadre.db") });
  try {
    const company = await createCompany(store, {
      name: "Durable Co",
      goal: "Build warehouse robots.",
      connectors: [{ kind: "openai-compatible", config: { baseUrl }, enabledModels: [STANDIN_MODEL] }],
    });
    const ceo = (await loadCompanyState(store, company.id)).ceo.id;
    await refreshReadiness(await store.listConnectors(company.id), {});
    const op = { companyId: company.id, agentId: null, via: "http" as const, runId: null, env: {} };
    const hired = await hireAgent(store, op, {
      name: "CTO",
      role: "CTO",
      description: "Builds.",
      connectorId: "offline",
      model: "offline-scripted-1",
    });
    expect(hired, JSON.stringify(hired)).toMatchObject({ ok: true });
    await setAgentModel(store, {
      agentId: ceo,
      model: STANDIN_MODEL,
      connectorId: "openai-compatible",
      env: {},
    });
    const filed = await fileApproval(
      store,
      { ...op, agentId: ceo, via: "tool" },
      { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan" },
    );
    await decideApproval(
      store,
      (filed as { value: { approvalId: string } }).value.approvalId,
      "approve",
      null,
    );
    const [request] = await store.listWakeRequests({ agentId: ceo, status: "pending" });
    expect(request).toMatchObject({ trigger: "approval_decided", taskId: null });
    return { ceo, requestId: request!.id };
  } finally {
    await store.close();
  }
}
