// The org chart's geometry: the CEO above its reports, managers centred over their teams, no two
// cards overlapping, an outline for narrow screens, and no agent ever dropped.
import { describe, expect, it } from "vitest";
import type { Agent } from "../api/types.js";
import { buildTree, DEFAULT_SIZES, layoutOrgChart, type OrgBox } from "./org-layout.js";

let clock = 0;
function agent(id: string, reportsTo: string | null, extra: Partial<Agent> = {}): Agent {
  return {
    id,
    companyId: "c",
    name: id,
    role: id,
    description: "",
    department: null,
    connectorId: "offline",
    model: "m",
    reportsTo,
    isCeo: reportsTo === null && id === "ceo",
    status: "active",
    via: "tool",
    createdAt: `2026-01-01T00:00:${String(clock++).padStart(2, "0")}Z`,
    ...extra,
  };
}

const overlaps = (a: OrgBox, b: OrgBox) =>
  a.x < b.x + DEFAULT_SIZES.boxWidth &&
  b.x < a.x + DEFAULT_SIZES.boxWidth &&
  a.y < b.y + DEFAULT_SIZES.boxHeight &&
  b.y < a.y + DEFAULT_SIZES.boxHeight;

describe("org chart layout", () => {
  const team = [
    agent("ceo", null),
    agent("cto", "ceo"),
    agent("cmo", "ceo"),
    agent("cfo", "ceo"),
    agent("dev", "cto"),
    agent("ops", "cto"),
  ];

  it("puts the CEO on top, centred over its reports, each level below the last, in hiring order", () => {
    const { boxes, links, width, height } = layoutOrgChart(team, "tree");
    const at = new Map(boxes.map((b) => [b.agent.id, b]));
    expect(at.get("ceo")!.depth).toBe(0);
    expect(["cto", "cmo", "cfo"].map((id) => at.get(id)!.depth)).toEqual([1, 1, 1]);
    expect(at.get("dev")!.depth).toBe(2);
    expect(at.get("cto")!.x).toBeLessThan(at.get("cmo")!.x);
    expect(at.get("cmo")!.x).toBeLessThan(at.get("cfo")!.x);
    const centre = (b: OrgBox) => b.x + DEFAULT_SIZES.boxWidth / 2;
    expect(centre(at.get("ceo")!)).toBeCloseTo((centre(at.get("cto")!) + centre(at.get("cfo")!)) / 2);
    expect(centre(at.get("cto")!)).toBeCloseTo((centre(at.get("dev")!) + centre(at.get("ops")!)) / 2);
    for (const a of boxes)
      for (const b of boxes) if (a !== b) expect(overlaps(a, b), `${a.agent.id}/${b.agent.id}`).toBe(false);
    expect(links.map((l) => `${l.from}>${l.to}`).sort()).toEqual([
      "ceo>cfo",
      "ceo>cmo",
      "ceo>cto",
      "cto>dev",
      "cto>ops",
    ]);
    for (const b of boxes) {
      expect(b.x + DEFAULT_SIZES.boxWidth).toBeLessThanOrEqual(width);
      expect(b.y + DEFAULT_SIZES.boxHeight).toBeLessThanOrEqual(height);
    }
  });

  it("lays out an outline for narrow screens: one card per row, indented by depth, parents first", () => {
    const { boxes } = layoutOrgChart(team, "outline");
    expect(boxes.map((b) => b.agent.id)).toEqual(["ceo", "cto", "dev", "ops", "cmo", "cfo"]);
    expect(boxes.map((b) => b.depth)).toEqual([0, 1, 2, 2, 1, 1]);
    expect(new Set(boxes.map((b) => b.y)).size).toBe(boxes.length);
    expect(boxes[2]!.x).toBeGreaterThan(boxes[1]!.x);
  });

  it("never drops an agent: an unknown manager or a reporting cycle makes a root", () => {
    const odd = [
      agent("ceo", null),
      agent("lost", "gone"),
      agent("a", "b"),
      agent("b", "a"),
      agent("self", "self"),
    ];
    const roots = buildTree(odd);
    const seen: string[] = [];
    const walk = (t: (typeof roots)[number]) => {
      seen.push(t.agent.id);
      t.children.forEach(walk);
    };
    roots.forEach(walk);
    expect(seen.sort()).toEqual(["a", "b", "ceo", "lost", "self"]);
    expect(layoutOrgChart(odd, "tree").boxes).toHaveLength(5);
    expect(layoutOrgChart([], "tree")).toMatchObject({ boxes: [], links: [] });
  });
});
