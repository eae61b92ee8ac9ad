// The dashboard's places, kept in the URL fragment (`#/companies/ID/approvals`), so that a reload
// or a shared link opens the same view and the server only ever serves index.html.

export type CompanyTab = "overview" | "tasks" | "connectors" | "runs" | "approvals" | "usage" | "audit";
export const COMPANY_TABS: readonly CompanyTab[] = [
  "overview",
  "tasks",
  "connectors",
  "runs",
  "approvals",
  "usage",
  "audit",
];

export type Route =
  | { page: "companies" }
  | { page: "company"; companyId: string; tab: CompanyTab }
  /** The Tasks board with one task opened and scrolled to: what a blocker or a run links to. */
  | { page: "task"; companyId: string; taskId: string }
  | { page: "run"; companyId: string; runId: string }
  | { page: "eval" };

const ID = "[A-Za-z0-9_-]+";

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "");
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`^/companies/(${ID})/runs/(${ID})$`).exec(path)))
    return { page: "run", companyId: m[1]!, runId: m[2]! };
  if ((m = new RegExp(`^/companies/(${ID})/tasks/(${ID})$`).exec(path)))
    return { page: "task", companyId: m[1]!, taskId: m[2]! };
  if ((m = new RegExp(`^/companies/(${ID})(?:/(${COMPANY_TABS.join("|")}))?$`).exec(path)))
    return { page: "company", companyId: m[1]!, tab: (m[2] as CompanyTab | undefined) ?? "overview" };
  if (path === "/eval") return { page: "eval" };
  return { page: "companies" };
}

export function href(route: Route): string {
  switch (route.page) {
    case "companies":
      return "#/";
    case "company":
      return route.tab === "overview"
        ? `#/companies/${route.companyId}`
        : `#/companies/${route.companyId}/${route.tab}`;
    case "task":
      return `#/companies/${route.companyId}/tasks/${route.taskId}`;
    case "run":
      return `#/companies/${route.companyId}/runs/${route.runId}`;
    case "eval":
      return "#/eval";
  }
}
