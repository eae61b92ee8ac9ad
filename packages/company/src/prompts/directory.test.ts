// A member's directory lists its manager, its peers and its direct reports, and counts the rest:
// its prompt stays the same size however many agents work elsewhere in the company.
import type { AgentRow } from "@cadre/store";
import { describe, expect, it } from "vitest";
import type { CompanyState } from "../state.js";
import { contactsSegment } from "./build.js";

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

  it("still lists the whole team for the CEO", () => {
    const agents = company(2);
    expect(names(contactsSegment(stateOf(agents), agents[0]!))).toHaveLength(agents.length);
  });
});
