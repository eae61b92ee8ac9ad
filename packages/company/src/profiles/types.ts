// A prompt profile (C4-7) as a driver: what a wake does differently under one profile — the CEO's
// mode documents, its initial turn, the tools its session is offered and what that session needs
// set up (an agent token, a shell), the texts it adds to the prompt lock, the offline CEO that
// plays it — behind one interface. The wake, the prompt builder and the lock ask the driver and
// never name a profile; a profile whose CEO acts over HTTP says so (needsApi), and the server, CLI
// and evals serve it an API without knowing which profile it is. Types only.
import type { LockedText, ToolDefinition } from "@cadre/core";
import type { ScriptReply, ScriptRequest } from "@cadre/core/offline";
import type { CeoMode, PromptProfile } from "@cadre/model";
import type { AgentRow, Store } from "@cadre/store";
import type { ProbeBook } from "../connectors/probe-cache.js";

export interface ProfileDriver {
  readonly name: PromptProfile;
  /**
   * Its CEO acts over HTTP: a wake needs a running Cadre API (WakeOptions.apiUrl). A local CLI
   * wake or an eval sample serves one for the wake's length; a worker passes its server's.
   */
  readonly needsApi: boolean;
  /** The CEO's mode documents (locked, MC-7): what decideCeoMode loads for each mode. */
  readonly modeDocuments: Readonly<Record<CeoMode, string>>;
  /** The texts this profile adds to the prompt lock beyond the product's own (prompts/locked-texts.ts). */
  lockedTexts(): LockedText[];
  /**
   * Settles the profile's part of one wake before anything is written: a wake it cannot run
   * (e.g. no API to call) is refused here with a UserInputError.
   */
  plan(input: { agent: AgentRow; apiUrl: string | undefined }): ProfileWake;
  /**
   * The offline CEO's reply when the request is this profile's (read from what it is offered);
   * undefined otherwise, and the product's offline CEO answers (profiles/offline-ceo-script.ts).
   */
  offlineCeo?(request: ScriptRequest): ScriptReply | undefined;
}

export interface ProfileWake {
  /** The initial turn sent for every trigger in place of the mode's cue; undefined: the cue. */
  cue?: string;
  /** Opens what the run's session needs, once the run exists (inside the run: a throw fails it). */
  open(input: ProfileRunInput): Promise<ProfileRun>;
}

export interface ProfileRunInput {
  /** The run's store (its lease's view). */
  store: Store;
  agent: AgentRow;
  runId: string;
  mode: CeoMode;
  probes: ProbeBook;
  env?: NodeJS.ProcessEnv;
  /** The run's working folders live under it. */
  dataDir?: string;
}

export interface ProfileRun {
  /** The tools the session is offered (by role and mode); fixed for the session. */
  tools: ToolDefinition[];
  /** The per-call work briefing goes with the initial turn. */
  briefing: boolean;
  /** Releases what the run held (e.g. revokes its token); called once the run has ended. */
  close(): Promise<void>;
}
