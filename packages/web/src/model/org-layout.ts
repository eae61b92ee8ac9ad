// Where each agent sits in the org chart picture. Two shapes: a top-down tree (the CEO on top,
// each manager centred over its reports) for wide screens, and an indented outline for narrow ones,
// where a tree of five side-by-side cards would shrink to unreadable text. Agents whose manager is
// unknown are placed as roots beside the CEO rather than dropped.
import type { Agent } from "../api/types.js";

export type OrgShape = "tree" | "outline";

export interface OrgBox {
  agent: Agent;
  x: number;
  y: number;
  depth: number;
}

export interface OrgLink {
  from: string;
  to: string;
  /** SVG path data of the connector. */
  path: string;
}

export interface OrgLayout {
  boxes: OrgBox[];
  links: OrgLink[];
  width: number;
  height: number;
}

export interface OrgSizes {
  boxWidth: number;
  boxHeight: number;
  gapX: number;
  gapY: number;
  /** Outline shape: horizontal step per level. */
  indent: number;
  margin: number;
}

export const DEFAULT_SIZES: OrgSizes = {
  boxWidth: 232,
  // Five detail lines under the name: role, department, connector · model, status · spend, task.
  boxHeight: 126,
  gapX: 20,
  gapY: 44,
  indent: 24,
  margin: 8,
};

interface Tree {
  agent: Agent;
  children: Tree[];
}

const byHire = (a: Agent, b: Agent) =>
  Number(b.isCeo) - Number(a.isCeo) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id);

export function buildTree(agents: readonly Agent[]): Tree[] {
  const sorted = [...agents].sort(byHire);
  const nodes = new Map(sorted.map((a) => [a.id, { agent: a, children: [] as Tree[] }]));
  const roots: Tree[] = [];
  for (const node of nodes.values()) {
    const parent = node.agent.reportsTo === null ? undefined : nodes.get(node.agent.reportsTo);
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  // A reporting cycle (never expected from the API) would hide its agents: each agent not reached
  // from a root becomes a root itself, and its place under its manager is dropped.
  const reached = new Set<Tree>();
  const visit = (t: Tree) => {
    if (reached.has(t)) return;
    reached.add(t);
    t.children.forEach(visit);
  };
  roots.forEach(visit);
  for (const node of nodes.values()) {
    if (reached.has(node)) continue;
    for (const other of nodes.values()) other.children = other.children.filter((c) => c !== node);
    roots.push(node);
    visit(node);
  }
  return roots;
}

export function layoutOrgChart(
  agents: readonly Agent[],
  shape: OrgShape,
  sizes: OrgSizes = DEFAULT_SIZES,
): OrgLayout {
  const roots = buildTree(agents);
  return shape === "tree" ? treeLayout(roots, sizes) : outlineLayout(roots, sizes);
}

function treeLayout(roots: Tree[], s: OrgSizes): OrgLayout {
  const boxes: OrgBox[] = [];
  const links: OrgLink[] = [];
  const widths = new Map<Tree, number>();
  const seen = new Set<Tree>();
  const measure = (t: Tree): number => {
    if (seen.has(t)) return 0;
    seen.add(t);
    const inner =
      t.children.map(measure).reduce((sum, w) => sum + w, 0) + Math.max(0, t.children.length - 1) * s.gapX;
    const w = Math.max(s.boxWidth, inner);
    widths.set(t, w);
    return w;
  };
  // Children first, left to right inside the subtree's width; then the manager, centred over its
  // first and last report (or over its own width when it has none).
  const place = (t: Tree, left: number, depth: number): OrgBox => {
    const w = widths.get(t) ?? s.boxWidth;
    const y = s.margin + depth * (s.boxHeight + s.gapY);
    let childLeft =
      left +
      (w -
        (t.children.reduce((sum, c) => sum + (widths.get(c) ?? 0), 0) +
          Math.max(0, t.children.length - 1) * s.gapX)) /
        2;
    const children: OrgBox[] = [];
    for (const child of t.children) {
      children.push(place(child, childLeft, depth + 1));
      childLeft += (widths.get(child) ?? 0) + s.gapX;
    }
    const first = children[0];
    const last = children.at(-1);
    const box: OrgBox = {
      agent: t.agent,
      x: first && last ? (first.x + last.x) / 2 : left + (w - s.boxWidth) / 2,
      y,
      depth,
    };
    boxes.push(box);
    for (const c of children) {
      const x1 = box.x + s.boxWidth / 2;
      const y1 = box.y + s.boxHeight;
      const mid = y1 + s.gapY / 2;
      links.push({
        from: t.agent.id,
        to: c.agent.id,
        path: `M${x1},${y1}V${mid}H${c.x + s.boxWidth / 2}V${c.y}`,
      });
    }
    return box;
  };
  let left = s.margin;
  for (const root of roots) {
    measure(root);
    place(root, left, 0);
    left += (widths.get(root) ?? s.boxWidth) + s.gapX;
  }
  const width = Math.max(...boxes.map((b) => b.x + s.boxWidth), 0) + s.margin;
  const height = Math.max(...boxes.map((b) => b.y + s.boxHeight), 0) + s.margin;
  return { boxes, links, width, height };
}

function outlineLayout(roots: Tree[], s: OrgSizes): OrgLayout {
  const boxes: OrgBox[] = [];
  const links: OrgLink[] = [];
  const gap = s.gapY / 3;
  const seen = new Set<Tree>();
  const place = (t: Tree, depth: number): OrgBox | undefined => {
    if (seen.has(t)) return undefined;
    seen.add(t);
    const box: OrgBox = {
      agent: t.agent,
      x: s.margin + depth * s.indent,
      y: s.margin + boxes.length * (s.boxHeight + gap),
      depth,
    };
    boxes.push(box);
    for (const child of t.children) {
      const c = place(child, depth + 1);
      if (!c) continue;
      const x1 = box.x + s.indent / 2;
      links.push({
        from: t.agent.id,
        to: child.agent.id,
        path: `M${x1},${box.y + s.boxHeight}V${c.y + s.boxHeight / 2}H${c.x}`,
      });
    }
    return box;
  };
  for (const root of roots) place(root, 0);
  const width = Math.max(...boxes.map((b) => b.x + s.boxWidth), 0) + s.margin;
  const height = Math.max(...boxes.map((b) => b.y + s.boxHeight), 0) + s.margin;
  return { boxes, links, width, height };
}
