// The authenticator's short-lived token → principal cache: a revocation made through the app's
// store (a route, a wake's end, serve's recovery, inside a transaction or not) is refused at once;
// one made by another process (a write the app does not see) is refused once the entry runs out.
import { createCompany, mintAgentToken } from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OPERATOR_TOKEN, testAppOver, type TestApp } from "../testing/harness.js";
import { Authenticator, PRINCIPAL_CACHE_MS } from "./principal.js";

let store: Store;
let app: TestApp;
let companyId: string;
let ceoId: string;

beforeEach(async () => {
  store = await openStore({ memory: true });
  app = testAppOver(store);
  const company = await createCompany(store, { name: "Cache Co" });
  companyId = company.id;
  ceoId = (await store.listAgents(company.id))[0]!.id;
});

afterEach(async () => {
  vi.useRealTimers();
  await app.close();
});

const read = (token: string) => app.request("GET", `/api/companies/${companyId}/agents`, { token });

describe("agent token cache", () => {
  it("refuses a key revoked inside a transaction of the app's store at once", async () => {
    const { token } = await mintAgentToken(store, { agentId: ceoId, label: "cli" });
    expect((await read(token)).status).toBe(200);
    expect((await read(token)).status).toBe(200); // served from the cache now
    await app.cadre.store.transaction((tx) => tx.revokeApiTokens({ agentId: ceoId }));
    expect((await read(token)).status).toBe(401);
  });

  it("refuses a key whose agent was set inactive through the app's store at once", async () => {
    const { token } = await mintAgentToken(store, { agentId: ceoId, label: "cli" });
    expect((await read(token)).status).toBe(200);
    await app.cadre.store.setAgentStatus(ceoId, "terminated");
    expect((await read(token)).status).toBe(401);
  });

  it("serves a cached principal without reading the store, and sees another process's revocation when the entry runs out", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const { token } = await mintAgentToken(store, { agentId: ceoId, label: "cli" });
    let reads = 0;
    const counting = {
      findApiTokenWithAgent: (hash: string) => {
        reads++;
        return store.findApiTokenWithAgent(hash);
      },
      getAgent: (id: string) => store.getAgent(id),
      listApiTokens: (id: string) => store.listApiTokens(id),
      findOperatorByHash: (hash: string) => store.findOperatorByHash(hash),
      listOperators: () => store.listOperators(),
    };
    const auth = new Authenticator(counting, OPERATOR_TOKEN);
    const header = `Bearer ${token}`;
    const principal = await auth.authenticate(header);
    expect(principal).toMatchObject({ kind: "agent", agentId: ceoId, companyId });
    expect(await auth.authenticate(header)).toEqual(principal);
    expect(reads).toBe(1);
    // Revoked behind the authenticator's back (another process): the entry holds until it runs out.
    await store.revokeApiTokens({ agentId: ceoId });
    vi.setSystemTime(Date.now() + PRINCIPAL_CACHE_MS + 1);
    await expect(auth.authenticate(header)).rejects.toMatchObject({ status: 401 });
    expect(reads).toBe(2);
    // A refusal is never cached: every try reads again.
    await expect(auth.authenticate(header)).rejects.toMatchObject({ status: 401 });
    expect(reads).toBe(3);
  });

  it("forgets every cached principal on invalidate()", async () => {
    const { token } = await mintAgentToken(store, { agentId: ceoId, label: "cli" });
    let reads = 0;
    const auth = new Authenticator(
      {
        findApiTokenWithAgent: (hash: string) => (reads++, store.findApiTokenWithAgent(hash)),
        getAgent: (id: string) => store.getAgent(id),
        listApiTokens: (id: string) => store.listApiTokens(id),
        findOperatorByHash: (hash: string) => store.findOperatorByHash(hash),
        listOperators: () => store.listOperators(),
      },
      OPERATOR_TOKEN,
    );
    await auth.authenticate(`Bearer ${token}`);
    await auth.authenticate(`Bearer ${token}`);
    expect(reads).toBe(1);
    auth.invalidate();
    await auth.authenticate(`Bearer ${token}`);
    expect(reads).toBe(2);
  });
});
