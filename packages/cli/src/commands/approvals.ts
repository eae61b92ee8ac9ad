// `cadre approvals list|show|approve|reject|revise`, through the operator port (the store, or a
// server with --server).
import { APPROVAL_STATUSES, isOneOf } from "@cadre/model";
import type { Decision } from "@cadre/company";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError, subcommandRequired } from "../io.js";
import { withOperator } from "../operator/open.js";
import { allAgents, PAGE_HELP, PAGE_OPTIONS, pageFromFlags, printNextPage } from "../operator/pages.js";
import { approvalsText, approvalText, decisionText, reviewsText } from "../operator/render/approvals.js";

export const APPROVALS_HELP = `Usage:
  cadre approvals list [--company ID] [--status pending|approved|rejected|revision_requested] [--limit N] [--after CURSOR] [--data DIR] [--database URL] [--json]
  cadre approvals show ID [--data DIR] [--database URL] [--json]
  cadre approvals approve ID [--note TEXT] [--data DIR] [--database URL] [--json]
  cadre approvals reject  ID [--note TEXT] [--data DIR] [--database URL] [--json]
  cadre approvals revise  ID [--note TEXT] [--data DIR] [--database URL] [--json]

show prints the filed text (the CEO's strategy) in full, who filed it, and once decided the
decision, its note and who decided.
Deciding the CEO's strategy moves the CEO's mode: approve → operating, reject or revise → revising.
The next wake of the CEO says so in its cue and instructions.
list also names the tasks handed in that wait for your review (those whose review rounds ran out,
and those you created): decide them with \`cadre tasks review\`. list shows a page at a time, oldest first; when more follow it prints the command for the next page
(with --json, on stderr).

${PAGE_HELP}
${DATABASE_HELP}
${SERVER_HELP}`;

const DECISIONS: Record<string, Decision> = { approve: "approve", reject: "reject", revise: "revise" };

export async function approvalsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub) throw subcommandRequired("approvals", ["list", "show", "approve", "reject", "revise"]);
  if (sub === "--help" || sub === "-h") return (io.out(`${APPROVALS_HELP}\n`), 0);
  if (sub === "list") {
    const { values } = parse("approvals list", rest, {
      ...STORE_OPTIONS,
      company: { type: "string" },
      status: { type: "string" },
      ...PAGE_OPTIONS,
    });
    if (values.help) return (io.out(`${APPROVALS_HELP}\n`), 0);
    const page = pageFromFlags("approvals list", values);
    const status = values.status;
    if (status !== undefined && !isOneOf(APPROVAL_STATUSES, status))
      throw new UsageError(`approvals list: --status must be one of ${APPROVAL_STATUSES.join(", ")}`);
    const { list, reviews } = await withOperator(
      values,
      io,
      server,
      async (port) => ({
        list: await port.listApprovals({
          ...(values.company ? { companyId: values.company } : {}),
          ...(status ? { status } : {}),
          page,
        }),
        // Tasks whose review is the operator's (rounds that ran out among them) wait for a decision too.
        reviews: values.json ? [] : await port.waitingReviews(values.company),
      }),
      "read",
    );
    io.out(
      values.json
        ? `${JSON.stringify(list.items)}\n`
        : approvalsText(list.items) + reviewsText(reviews.filter((r) => r.reviewerAgentId === null)),
    );
    printNextPage(io, values, list.nextCursor, "approvals list", rest);
    return 0;
  }
  if (sub === "show") {
    const { values, positionals } = parse("approvals show", rest, STORE_OPTIONS, 1);
    if (values.help) return (io.out(`${APPROVALS_HELP}\n`), 0);
    const id = positionals[0];
    if (!id) throw new UsageError("approvals show: the approval ID is required (see `cadre approvals list`)");
    const { approval, agents } = await withOperator(
      values,
      io,
      server,
      async (port) => {
        const approval = await port.approval(id);
        return { approval, agents: await allAgents(port, { companyId: approval.companyId, all: true }) };
      },
      "read",
    );
    io.out(values.json ? `${JSON.stringify(approval)}\n` : approvalText(approval, agents));
    return 0;
  }
  const decision = DECISIONS[sub];
  if (!decision)
    throw new UsageError(`approvals: unknown subcommand "${sub}"; use list, show, approve, reject or revise`);
  const { values, positionals } = parse(
    `approvals ${sub}`,
    rest,
    { ...STORE_OPTIONS, note: { type: "string" } },
    1,
  );
  if (values.help) return (io.out(`${APPROVALS_HELP}\n`), 0);
  const id = positionals[0];
  if (!id)
    throw new UsageError(`approvals ${sub}: the approval ID is required (see \`cadre approvals list\`)`);
  const { result, agents } = await withOperator(values, io, server, async (port) => {
    const result = await port.decide(id, decision, values.note);
    return { result, agents: await allAgents(port, { companyId: result.approval.companyId, all: true }) };
  });
  io.out(values.json ? `${JSON.stringify(result)}\n` : decisionText(result, agents));
  return 0;
}
