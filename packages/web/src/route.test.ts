// The dashboard's places in the URL fragment, both ways.
import { describe, expect, it } from "vitest";
import { href, parseRoute, type Route } from "./route.js";

describe("routes", () => {
  it("round-trips every place through its link", () => {
    const places: Route[] = [
      { page: "companies" },
      { page: "company", companyId: "cmp_1", tab: "overview" },
      { page: "company", companyId: "cmp_1", tab: "approvals" },
      { page: "company", companyId: "cmp_1", tab: "connectors" },
      { page: "company", companyId: "cmp_1", tab: "usage" },
      { page: "run", companyId: "cmp_1", runId: "run_2" },
      { page: "task", companyId: "cmp_1", taskId: "task_3" },
      { page: "eval" },
    ];
    for (const place of places) expect(parseRoute(href(place))).toEqual(place);
  });

  it("sends anything unknown to the companies list", () => {
    for (const hash of ["", "#", "#/nope", "#/companies/a b", "#/companies/c1/secret", "#token=x"])
      expect(parseRoute(hash)).toEqual({ page: "companies" });
  });
});
