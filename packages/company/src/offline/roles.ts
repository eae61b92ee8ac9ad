// The offline CEO's repertoire of leadership roles, with varied wording so that samples differ the
// way a real model's do, and the goal words that make each role more urgent.
import type { Department } from "@cadre/model";

export interface RoleOption {
  department: Department;
  /** [short name, role title] pairs; one is picked per session. */
  wordings: ReadonlyArray<readonly [string, string]>;
  duty: string;
  /** Goal words that raise this role's priority. */
  cues: readonly string[];
}

export const ROLE_OPTIONS: readonly RoleOption[] = [
  {
    department: "engineering",
    wordings: [
      ["CTO", "Chief Technology Officer"],
      ["VP Engineering", "Vice President of Engineering"],
      ["Head of Engineering", "Head of Engineering"],
    ],
    duty: "Owns the technical architecture and leads the engineering work that builds the product.",
    cues: ["software", "app", "platform", "ai", "api", "saas", "tool", "robot", "build", "tech"],
  },
  {
    department: "product",
    wordings: [
      ["CPO", "Chief Product Officer"],
      ["Head of Product", "Head of Product"],
      ["Product Lead", "Product Lead"],
    ],
    duty: "Turns the company goal into a roadmap and decides what ships first, based on what customers need.",
    cues: ["product", "app", "users", "customers", "platform", "saas"],
  },
  {
    department: "marketing",
    wordings: [
      ["CMO", "Chief Marketing Officer"],
      ["Head of Marketing", "Head of Marketing"],
      ["Growth Lead", "Head of Growth Marketing"],
    ],
    duty: "Builds the brand and the channels that bring the first customers in.",
    cues: ["brand", "consumer", "market", "audience", "growth", "launch", "community"],
  },
  {
    department: "sales",
    wordings: [
      ["Head of Sales", "Head of Sales"],
      ["VP Sales", "Vice President of Sales"],
      ["CRO", "Chief Revenue Officer"],
    ],
    duty: "Finds and closes the first paying customers and owns the revenue plan.",
    cues: ["sell", "sales", "b2b", "enterprise", "revenue", "customers", "clients"],
  },
  {
    department: "operations",
    wordings: [
      ["COO", "Chief Operating Officer"],
      ["Head of Operations", "Head of Operations"],
    ],
    duty: "Runs day-to-day operations, processes and suppliers so the team can deliver reliably.",
    cues: ["logistics", "supply", "operations", "delivery", "service", "store", "shop"],
  },
  {
    department: "design",
    wordings: [
      ["Head of Design", "Head of Design"],
      ["Design Lead", "Product Design Lead"],
    ],
    duty: "Shapes the user experience and the visual identity of everything the company ships.",
    cues: ["design", "ux", "fashion", "creative", "experience", "game"],
  },
  {
    department: "finance",
    wordings: [
      ["CFO", "Chief Financial Officer"],
      ["Finance Lead", "Head of Finance"],
    ],
    duty: "Owns the budget, the financial model and fundraising.",
    cues: ["finance", "bank", "payments", "fintech", "money", "invest", "budget", "accounting"],
  },
  {
    department: "legal",
    wordings: [
      ["General Counsel", "General Counsel"],
      ["Head of Legal", "Head of Legal and Compliance"],
    ],
    duty: "Keeps the company compliant and handles contracts, privacy and regulation.",
    cues: ["legal", "compliance", "regulation", "law", "contract", "privacy", "health", "medical"],
  },
];

/** Roles ranked for a goal: goal words first, then the default order. Ties keep the default order. */
export function rankRoles(goal: string): RoleOption[] {
  const words = new Set(
    goal
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter(Boolean),
  );
  const score = (r: RoleOption) => r.cues.filter((c) => words.has(c)).length;
  return ROLE_OPTIONS.map((r, i) => ({ r, i, s: score(r) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.r);
}
