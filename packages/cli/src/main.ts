// The `cadre` command: a thin layer over @cadre/company. Errors are mapped to exit codes here,
// in one place: 2 for bad usage or input (message on stderr), 1 for a failed job or our bug.
import { UserInputError } from "@cadre/core";
import { agentsCommand } from "./commands/agents.js";
import { approvalsCommand } from "./commands/approvals.js";
import { companyCommand } from "./commands/company.js";
import { demoCommand } from "./commands/demo.js";
import { translateCommand } from "./commands/translate.js";
import { wakeCommand } from "./commands/wake.js";
import { type CliIO, UsageError } from "./io.js";

export const MAIN_HELP = `cadre — run AI companies whose agents behave predictably

Usage: cadre <command> [options]      (cadre <command> --help for details)

Commands:
  demo                         create a company from the built-in template, wake its CEO, stream it
  company show|create          the company, its CEO mode and why, connectors, team, approvals
  agents list                  the company's agents
  approvals list               the company's approvals
  approvals approve|reject|revise ID [--note TEXT]
                               decide an approval (moves the CEO's mode)
  wake AGENT_ID                wake one agent and stream its run
  translate --from FORMAT      translate a captured vendor stream (stdin) into AgentEvent JSON lines

Common options: --data DIR (default ./.cadre), --json, -h/--help
Exit codes: 0 success, 1 the job failed, 2 bad usage or input`;

type Command = (args: string[], io: CliIO) => Promise<number>;

const COMMANDS: Record<string, Command> = {
  demo: demoCommand,
  company: companyCommand,
  agents: agentsCommand,
  approvals: approvalsCommand,
  wake: wakeCommand,
  translate: (args, io) => translateCommand(args, { stdin: io.stdin, stdout: (line) => io.out(`${line}\n`), stderr: (line) => io.err(`${line}\n`) }),
};

export async function main(argv: string[], io: CliIO): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    io.out(`${MAIN_HELP}\n`);
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`cadre: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(", ")}. See cadre --help.\n`);
    return 2;
  }
  try {
    return await command(args, io);
  } catch (error) {
    if (error instanceof UsageError || error instanceof UserInputError) {
      // Messages from subcommands already start with their name ("approvals list: …").
      io.err(error.message.startsWith(name) ? `cadre ${error.message}\n` : `cadre ${name}: ${error.message}\n`);
      return 2;
    }
    io.err(`cadre ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 1;
  }
}
