// The org chart as a picture: one card per agent (name, role, department, connector and model,
// how it was hired, and its work: running or idle, what it spent, the task it is on), lines from
// each manager to its reports. A tree on wide screens, an indented
// outline on narrow ones (see model/org-layout.ts). A hire arriving over the event stream appears
// at once, with a short highlight.
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import type { Agent, Connector } from "../../api/types.js";
import type { AgentGlance } from "../../model/agent-glance.js";
import { DEFAULT_SIZES, layoutOrgChart, type OrgBox } from "../../model/org-layout.js";
import { viaLabel } from "./via-label.js";

const NARROW_PX = 640;
/** A wide tree is shrunk to fit, down to this scale; past it the chart scrolls sideways instead. */
const MIN_SCALE = 0.8;
/** Rough width of one character of the card text (12–14px), to cut lines that would overflow the card. */
const CHAR_PX = 6.6;

function fit(text: string, width: number): string {
  const max = Math.max(4, Math.floor((width - 20) / CHAR_PX));
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function OrgChart({
  agents,
  connectors,
  glances,
}: {
  agents: Agent[];
  connectors: Connector[];
  /** Each agent's work now (status, task, spend); absent while it is read. */
  glances?: ReadonlyMap<string, AgentGlance>;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(1000);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    setWidth(el.clientWidth);
    return () => observer.disconnect();
  }, []);
  const shape = width < NARROW_PX ? "outline" : "tree";
  const depth = Math.max(0, ...layoutOrgChart(agents, "outline").boxes.map((b) => b.depth));
  const sizes =
    shape === "outline"
      ? {
          ...DEFAULT_SIZES,
          boxWidth: Math.max(200, width - 2 * DEFAULT_SIZES.margin - depth * DEFAULT_SIZES.indent),
        }
      : DEFAULT_SIZES;
  const layout = layoutOrgChart(agents, shape, sizes);
  const ready = new Map(connectors.map((c) => [c.id, c.ready]));
  // Agents shown before: only an agent that arrives later is highlighted as it lands.
  const known = useRef<Set<string> | undefined>(undefined);
  const fresh = (id: string) => known.current !== undefined && !known.current.has(id);
  useEffect(() => {
    if (agents.length > 0) known.current = new Set(agents.map((a) => a.id));
  }, [agents]);
  const reports = agents.filter((a) => !a.isCeo && a.status === "active").length;
  const shownWidth = Math.min(layout.width, Math.max(width, layout.width * MIN_SCALE));
  return (
    <div ref={box} class="org-chart" data-testid="org-chart" data-shape={shape}>
      {agents.length === 0 ? (
        <p class="muted">No agents yet.</p>
      ) : (
        <svg
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          width={shownWidth}
          height={(layout.height * shownWidth) / layout.width}
          role="img"
          aria-labelledby="org-chart-title"
        >
          <title id="org-chart-title">{`Org chart: the CEO and ${reports} active report(s)`}</title>
          {layout.links.map((l) => (
            <path key={`${l.from}-${l.to}`} d={l.path} class="org-link" />
          ))}
          {layout.boxes.map((b) => (
            <AgentCard
              key={b.agent.id}
              box={b}
              width={sizes.boxWidth}
              height={sizes.boxHeight}
              connectorReady={ready.get(b.agent.connectorId)}
              landed={fresh(b.agent.id)}
              glance={glances?.get(b.agent.id)}
            />
          ))}
        </svg>
      )}
    </div>
  );
}

function AgentCard({
  box,
  width,
  height,
  connectorReady,
  landed,
  glance,
}: {
  box: OrgBox;
  width: number;
  height: number;
  connectorReady: boolean | undefined;
  landed: boolean;
  glance: AgentGlance | undefined;
}) {
  const a = box.agent;
  const lines = [
    a.role,
    a.department ? `${a.department} · ${viaLabel(a, true)}` : viaLabel(a, true),
    `${a.connectorId} · ${a.model}${connectorReady === false ? " (not ready)" : ""}`,
  ];
  const work = glance ? [`${glance.status} · ${glance.spend}`, glance.task] : [];
  const classes = [
    "org-node",
    a.isCeo ? "ceo" : "",
    a.status === "terminated" ? "terminated" : "",
    landed ? "landed" : "",
    glance?.status === "running" ? "running" : "",
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <g class={classes} transform={`translate(${box.x},${box.y})`} data-agent-id={a.id} data-testid="org-node">
      <title>{`${a.name}: ${a.role}; department ${a.department ?? "none"}; ${a.connectorId} · ${a.model}; ${viaLabel(a)}${a.status === "terminated" ? "; terminated" : ""}${glance ? `; ${glance.status}; ${glance.task}; spent: ${glance.spend}` : ""}`}</title>
      <rect width={width} height={height} rx={8} />
      <text x={10} y={22} class="org-name">
        {fit(a.name, width)}
      </text>
      {lines.map((line, i) => (
        <text key={i} x={10} y={42 + i * 17} class="org-detail">
          {fit(line, width)}
        </text>
      ))}
      {work.map((line, i) => (
        <text
          key={`w${i}`}
          x={10}
          y={42 + (lines.length + i) * 17}
          class={i === 0 ? `org-work org-${glance!.status}` : "org-work"}
          data-testid={i === 0 ? "org-status" : "org-task"}
        >
          {fit(line, width)}
        </text>
      ))}
    </g>
  );
}
