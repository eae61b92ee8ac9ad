import { CEO_MODES } from "@cadre/model";
// Selecting the legacy profile: the old turn (≈400 tokens, counted with o200k_base), refusals
// before anything is written, and a run token that lives exactly as long as the run.
import { openStore, type Store } from "@cadre/store";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../../companies.js";
import { loadCompanyState } from "../../state.js";
import { wakeAgent } from "../../wake.js";
import { hashToken } from "../../agent-tokens.js";
import { legacyInitialTurn } from "./initial-turn.js";
import { legacyLockedTexts } from "./locked-texts.js";
import { prepareLegacyRun } from "./profile.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => store.close());

async function company(profile: "semantic" | "legacy" = "semantic") {
  const c = await createCompany(store, { name: "Acme", goal: "Build robots.", settings: { profile } });
  return { company: c, ceo: (await loadCompanyState(store, c.id)).ceo };
}

describe("legacy initial turn", () => {
  it("is the old hard-coded turn: about 400 tokens, naming bash, node -e, fetch, the endpoints and the numbers", () => {
    const turn = legacyInitialTurn({ apiUrl: "http://127.0.0.1:7420/", companyId: "cmp_0123456789abcdef" });
    const tokens = countTokens(turn);
    expect(tokens).toBeGreaterThanOrEqual(350);
    expect(tokens).toBeLessThanOrEqual(450);
    for (const part of [
      "`bash`",
      "node -e",
      "fetch",
      "3–5",
      "approve_ceo_strategy",
      "NOW",
      "POST http://127.0.0.1:7420/api/companies/cmp_0123456789abcdef/agents ",
      "POST http://127.0.0.1:7420/api/companies/cmp_0123456789abcdef/approvals ",
      "$CADRE_AGENT_TOKEN",
    ]) {
      expect(turn).toContain(part);
    }
  });
});

describe("legacy locked texts (MC-7)", () => {
  it("are the legacy mode documents, the turn's template and the bash tool, with nothing that varies per run", () => {
    const texts = legacyLockedTexts();
    const byId = new Map(texts.map((t) => [t.id, t.text]));
    expect(texts.map((t) => t.id)).toEqual([
      ...CEO_MODES.map((m) => `mode/legacy/${m}`),
      "cue/legacy/initial-turn",
      "tool/bash",
    ]);
    expect(byId.get("cue/legacy/initial-turn")).toContain(
      "POST {api url}/api/companies/{company id}/agents ",
    );
    expect(JSON.parse(byId.get("tool/bash")!)).toMatchObject({
      name: "bash",
      parameters: { required: ["command"] },
    });
    // A faithful rollback: the legacy documents describe the shell/HTTP way and name no company tool.
    for (const m of CEO_MODES) expect(byId.get(`mode/legacy/${m}`)).not.toMatch(/hire_agent|file_approval/);
    expect(byId.get("mode/legacy/team-building")).toMatch(/with the bash tool as a `node -e` script/);
    expect(legacyLockedTexts()).toEqual(texts);
  });
});

describe("legacy profile selection", () => {
  it("refuses a legacy wake with no API to call, and a legacy wake of a member, writing nothing", async () => {
    const { company: c, ceo } = await company("legacy");
    const member = await store.insertAgent({
      id: "agt_m",
      companyId: c.id,
      name: "CTO",
      role: "CTO",
      description: "Tech.",
      department: "engineering",
      connectorId: "offline",
      model: "offline-scripted-1",
      reportsTo: ceo.id,
      isCeo: false,
      status: "active",
      via: "tool",
    });
    // An approved strategy, so that the member may work at all and the profile rule is what refuses.
    await store.insertApproval(
      {
        id: "apr_1",
        companyId: c.id,
        type: "approve_ceo_strategy",
        title: "Plan",
        payload: "Go.",
        filedByAgentId: ceo.id,
        via: "tool",
      },
      ceo.id,
    );
    await store.decideApproval("apr_1", "approved", null, "operator");
    const before = await store.counts();
    await expect(wakeAgent({ store, agentId: ceo.id })).rejects.toThrow(
      /legacy profile needs a running Cadre API/,
    );
    const semanticCompany = await company();
    const before2 = await store.counts();
    await expect(wakeAgent({ store, agentId: semanticCompany.ceo.id, profile: "legacy" })).rejects.toThrow(
      /cadre serve/,
    );
    expect(await store.counts()).toEqual(before2);
    await expect(
      wakeAgent({ store, agentId: member.id, profile: "legacy", apiUrl: "http://127.0.0.1:1" }),
    ).rejects.toThrow(/CEO's wake only/);
    expect((await store.counts())["runs"]).toBe(before["runs"]);
  });

  it("a wake's profile overrides the company's, and is recorded on the run", async () => {
    const { ceo } = await company("legacy");
    const result = await wakeAgent({ store, agentId: ceo.id, profile: "semantic", seed: 1 });
    expect(result.run.profile).toBe("semantic");
    expect(result.cueTokens).toBeLessThanOrEqual(80);
  });

  it("mints a token for the run, scoped to the CEO, and revokes it when the run closes", async () => {
    const { company: c, ceo } = await company();
    await store.insertRun({
      id: "run_1",
      companyId: c.id,
      agentId: ceo.id,
      trigger: "routine",
      mode: "team-building",
      profile: "legacy",
      cue: "x",
    });
    const run = await prepareLegacyRun({ store, agent: ceo, runId: "run_1", apiUrl: "http://127.0.0.1:9" });
    expect(run.tools.map((t) => t.name)).toEqual(["bash"]);
    expect(run.cue).toContain(`http://127.0.0.1:9/api/companies/${c.id}/agents`);
    const echoed = await run.tools[0]!.execute(
      { command: "echo $CADRE_AGENT_TOKEN" },
      { toolCallId: "t", signal: undefined },
    );
    const token = (echoed.content[0] as { text: string }).text.split("\n")[0]!;
    expect(await store.findApiToken(hashToken(token))).toMatchObject({
      agentId: ceo.id,
      runId: "run_1",
      revokedAt: null,
    });
    await run.close();
    expect((await store.findApiToken(hashToken(token)))?.revokedAt).toEqual(expect.any(String));
  });
});
