// The tasks handed in and who reviews each: the operator's inbox reads the ones that
// wait for the operator — review rounds that ran out among them — and decides them with
// POST /api/tasks/{id}/review.
import { waitingReviews, WaitingReviewViewSchema } from "@cadre/company";
import { route } from "./define.js";
import { PAGE_QUERY, pageAnswer, pageRequest, PageSchema } from "./pages.js";
import { companyScope } from "./scopes.js";

export const reviewRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/reviews",
    summary:
      "The company's tasks handed in (in_review), oldest first, each with its reviewer (an agent, or the operator) and whether its review rounds ran out.",
    access: "company",
    scope: companyScope,
    query: PAGE_QUERY,
    response: {
      status: 200,
      description: "A page of tasks waiting for review.",
      schema: PageSchema(WaitingReviewViewSchema, "The tasks handed in, with their reviewers."),
    },
    async handle({ c, ctx, scope }) {
      const page = pageRequest(c);
      const { rows, view } = await waitingReviews(ctx.store, scope.companyId, page.store);
      return pageAnswer(rows, page, (t) => t.createdAt, view);
    },
  }),
];
