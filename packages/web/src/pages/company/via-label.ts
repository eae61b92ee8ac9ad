// How an agent came to be, in words (each record says which path created it, C4-6).
import type { Agent } from "../../api/types.js";

export function viaLabel(agent: Pick<Agent, "via" | "isCeo">, short = false): string {
  const hired = short ? "via" : "hired via";
  if (agent.isCeo) return "created with the company";
  switch (agent.via) {
    case "tool":
      return `${hired} hire_agent`;
    case "http":
      return `${hired} legacy HTTP`;
    case "system":
      return "created by the system";
  }
}
