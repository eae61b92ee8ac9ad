// `cadre wake AGENT_ID`.
import { WAKE_TRIGGERS, type WakeTrigger, wakeAgent } from "@cadre/company";
import { FAULT_NAMES, parseFaultList } from "@cadre/core";
import { COMMON_OPTIONS, parse } from "../args.js";
import { openData } from "../context.js";
import { type CliIO, UsageError } from "../io.js";
import { createRenderer } from "../render.js";
import { parseProfile, withProfile } from "../client/legacy-server.js";

export const WAKE_HELP = `Usage: cadre wake AGENT_ID [--trigger ${WAKE_TRIGGERS.join("|")}] [--seed N] [--profile semantic|legacy] [--faults LIST] [--data DIR] [--json]

Wakes one agent and streams its run. The CEO's cue and instructions follow its mode; the trigger
defaults to approval_decided when the operator decided something since the agent's last run,
else routine. Team members can only be woken once the strategy is approved.
--profile chooses the CEO's prompt profile for this wake (default: the company's): legacy is the old
hard-coded turn and a bash tool whose node -e fetch POSTs reach an API served for the wake.
--faults LIST rehearses failures on the offline connector (comma-separated: ${FAULT_NAMES.join(", ")});
the --json line then also carries replays and rollovers (see cadre demo --help).`;

export async function wakeCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse("wake", args, { ...COMMON_OPTIONS, trigger: { type: "string" }, seed: { type: "string" }, profile: { type: "string" }, faults: { type: "string" } }, 1);
  if (values.help) return io.out(`${WAKE_HELP}\n`), 0;
  const agentId = positionals[0];
  if (!agentId) throw new UsageError("wake: AGENT_ID is required (see `cadre agents list`)");
  const trigger = values.trigger as WakeTrigger | undefined;
  if (trigger && !WAKE_TRIGGERS.includes(trigger)) throw new UsageError(`wake: --trigger must be one of ${WAKE_TRIGGERS.join(", ")}`);
  if (values.seed !== undefined && !/^\d{1,15}$/.test(values.seed)) throw new UsageError(`wake: --seed must be a whole number`);
  const profile = parseProfile("wake", values.profile);
  const faults = values.faults === undefined ? undefined : parseFaultList(values.faults);
  const { dataDir, store } = await openData(values.data);
  try {
    const agent = await store.getAgent(agentId);
    const render = createRenderer(io.out, agent?.name ?? "agent");
    const result = await withProfile({ store, dataDir, io, agentId, profile }, (byProfile) => wakeAgent({
      ...byProfile,
      store,
      agentId,
      dataDir,
      env: io.env,
      ...(trigger ? { trigger } : {}),
      ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
      ...(faults ? { faults } : {}),
      onStart: ({ run, cue, cueTokens, mode }) => io.out(`run ${run.id} — mode ${mode}, trigger ${run.trigger}\ncue "${cue}" (${cueTokens} tokens)\n`),
      onEvent: render,
    }));
    io.out(`mode: ${result.modeBefore} → ${result.modeAfter}\n`);
    if (values.json) {
      io.out(`${JSON.stringify({ runId: result.run.id, agentId, terminal: result.terminal, modeBefore: result.modeBefore, modeAfter: result.modeAfter, initialCue: { text: result.cue, tokens: result.cueTokens }, usage: result.usage, ...(faults ? { replays: result.replays, rollovers: result.rollovers } : {}) })}\n`);
    }
    return result.terminal === "done" ? 0 : 1;
  } finally {
    await store.close();
  }
}
