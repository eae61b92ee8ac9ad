// `cadre approvals list|approve|reject|revise`.
import { APPROVAL_STATUSES, type ApprovalStatus } from "@cadre/model";
import { decideApproval, type Decision } from "@cadre/company";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const APPROVALS_HELP = `Usage:
  cadre approvals list [--company ID] [--status pending|approved|rejected|revision_requested] [--data DIR] [--database URL] [--json]
  cadre approvals approve ID [--note TEXT] [--data DIR] [--database URL] [--json]
  cadre approvals reject  ID [--note TEXT] [--data DIR] [--database URL] [--json]
  cadre approvals revise  ID [--note TEXT] [--data DIR] [--database URL] [--json]

Deciding the CEO's strategy moves the CEO's mode: approve → operating, reject or revise → revising.
The next wake of the CEO says so in its cue and instructions.

${DATABASE_HELP}`;

/** The statuses `approvals list --status` accepts (local and --server). */

export async function approvalsCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${APPROVALS_HELP}\n`), sub ? 0 : 2);
  if (sub === "list") {
    const { values } = parse("approvals list", rest, {
      ...STORE_OPTIONS,
      company: { type: "string" },
      status: { type: "string" },
    });
    if (values.help) return (io.out(`${APPROVALS_HELP}\n`), 0);
    const status = values.status as ApprovalStatus | undefined;
    if (status && !APPROVAL_STATUSES.includes(status))
      throw new UsageError(`approvals list: --status must be one of ${APPROVAL_STATUSES.join(", ")}`);
    const { dataDir, store } = await openData(values, io.env);
    try {
      const company = await pickCompany(store, values.company, dataDir);
      const approvals = await store.listApprovals(company.id, status ? { status } : {});
      if (values.json) return (io.out(`${JSON.stringify(approvals)}\n`), 0);
      if (approvals.length === 0) io.out("no approvals\n");
      for (const a of approvals)
        io.out(
          `${a.id}  ${a.type}  ${a.status.padEnd(18)} "${a.title}" (via ${a.via})${a.decisionNote ? ` note: ${a.decisionNote}` : ""}\n`,
        );
      return 0;
    } finally {
      await store.close();
    }
  }
  if (sub !== "approve" && sub !== "reject" && sub !== "revise")
    throw new UsageError(`approvals: unknown subcommand "${sub}"; use list, approve, reject or revise`);
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
  const { store } = await openData(values, io.env);
  try {
    const result = await decideApproval(store, id, sub as Decision, values.note ?? null);
    if (values.json) return (io.out(`${JSON.stringify(result)}\n`), 0);
    io.out(
      `${result.approval.id} is now ${result.approval.status}${result.approval.decisionNote ? ` (note: ${result.approval.decisionNote})` : ""}\n`,
    );
    io.out(`CEO mode: ${result.modeBefore} → ${result.modeAfter}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
