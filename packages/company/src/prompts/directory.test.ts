// A member's directory lists its manager, the first of its peers and of its direct reports, and
// counts the rest; the CEO's lists the first of the team: a prompt stays the same size however many
// agents the company has. The store's bounded reads give the directory the whole team gives.
import { openStore, type AgentRow } from "@cadre/store";
import { describe, expect, it } from "vitest";
import type { CompanyState } from "../state.js";
import { contactsSegment } from "./build.js";
import { DIRECTORY_LIMITS, directoryFromTeam, readDirectory } from "./directory.js";

const agent = (id: string, reportsTo: string | null, isCeo = false): AgentRow => ({
  id,
  companyId: "cmp_1",
  name: id.toUpperCase(),
  role: `Role of ${id}`,
  description: "",
  department: null,
  connectorId: "offline",
  model: "offline-scripted-1",
  reportsTo,
  isCeo,
  status: "active",
  via: "tool",
  createdAt: "2026-01-01T00:00:00.000Z",
});

/** A CEO, two heads, and `size` reports under each head. */
function company(size: number): AgentRow[] {
  const out = [agent("ceo", null, true), agent("eng", "ceo"), agent("ops", "ceo")];
  for (let i = 0; i < size; i++) out.push(agent(`eng${i}`, "eng"), agent(`ops${i}`, "ops"));
  return out;
}

// contactsSegment reads the active agents only.
const stateOf = (activeAgents: AgentRow[]) => ({ activeAgents }) as unknown as CompanyState;
const names = (segment: string) => [...segment.matchAll(/^- ([A-Z0-9]+):/gm)].map((m) => m[1]);

describe("a member's company directory", () => {
  it("lists its manager, peers and reports, and counts everyone else", () => {
    const agents = company(3);
    const eng0 = agents.find((a) => a.id === "eng0")!;
    const segment = contactsSegment(stateOf(agents), eng0);
    expect(names(segment)).toEqual(["ENG", "ENG0", "ENG1", "ENG2"]);
    expect(segment).toMatch(/^Also in the company: 5 more active agents, not listed here\.$/m);
    const head = agents.find((a) => a.id === "eng")!;
    expect(names(contactsSegment(stateOf(agents), head))).toEqual([
      "CEO",
      "ENG",
      "OPS",
      "ENG0",
      "ENG1",
      "ENG2",
    ]);
  });

  it("keeps a member's directory the same size whether the rest of the company is 10 or 1,000 agents", () => {
    const small = company(4);
    const large = [
      ...small,
      ...company(500)
        .slice(3)
        .map((a) => ({ ...a, id: `x${a.id}`, reportsTo: "ops" })),
    ];
    const eng0 = small.find((a) => a.id === "eng0")!;
    const a = contactsSegment(stateOf(small), eng0);
    const b = contactsSegment(stateOf(large), eng0);
    expect(names(b)).toEqual(names(a));
    expect(b.length - a.length).toBeLessThan(10);
  });

  it("lists the whole team of a small company for the CEO", () => {
    const agents = company(2);
    expect(names(contactsSegment(stateOf(agents), agents[0]!))).toHaveLength(agents.length);
  });

  it("lists the first peers and reports of a large team, and counts the others", () => {
    const agents = company(200);
    const eng = agents.find((a) => a.id === "eng")!;
    const eng0 = agents.find((a) => a.id === "eng0")!;
    const member = contactsSegment(stateOf(agents), eng0);
    // Itself, its manager and the first peers (by creation time, then id).
    expect(names(member)).toHaveLength(2 + DIRECTORY_LIMITS.peers);
    expect(member).toContain(`Also in the company: ${agents.length - 2 - DIRECTORY_LIMITS.peers} more`);
    // The head: its manager (the CEO), its peer and the first of its 200 reports.
    expect(names(contactsSegment(stateOf(agents), eng))).toHaveLength(3 + DIRECTORY_LIMITS.reports);
    const ceo = contactsSegment(stateOf(agents), agents[0]!);
    expect(names(ceo)).toHaveLength(1 + DIRECTORY_LIMITS.ceo);
    expect(ceo).toContain(`Also in the company: ${agents.length - 1 - DIRECTORY_LIMITS.ceo} more`);
  });

  it("reads from the store the directory the whole team gives, for the CEO, a head and a member", async () => {
    const store = await openStore({ memory: true });
    try {
      await store.insertCompany({
        id: "cmp_1",
        name: "Robots",
        goal: "Build robots.",
        settings: { maxTeamSize: 1000, requireHireApproval: false, profile: "semantic" },
      });
      await store.insertConnector({
        companyId: "cmp_1",
        id: "offline",
        kind: "offline",
        label: "Offline",
        enabledModels: ["offline-scripted-1"],
        config: {},
      });
      const team = company(60);
      // Terminated agents are neither listed nor counted.
      const gone = [agent("gone", "eng"), agent("gone2", "ceo")].map((a) => ({
        ...a,
        status: "terminated" as const,
      }));
      for (const a of [...team, ...gone]) await store.insertAgent(a);
      const stored = await store.listAgents("cmp_1", { status: "active" });
      expect(stored).toHaveLength(team.length);
      for (const id of ["ceo", "eng", "eng7", "ops59"]) {
        const self = stored.find((a) => a.id === id)!;
        expect(await readDirectory(store, self, "ceo", stored.length)).toEqual(
          directoryFromTeam(stored, self),
        );
      }
    } finally {
      await store.close();
    }
  });
});
