// A harness-neutral tool: defined once (name, description, JSON schema, validation, handler) and
// adapted to each harness at one factory point. Core knows nothing about what the tools do.
import type { Static, TSchema } from "typebox";
import type { ToolResultContent } from "../types.js";

export type ValidationResult<T> =
  { ok: true; value: T } | { ok: false; message: string; fields: Record<string, string> };

export interface ToolOutcome {
  /** What the model reads. */
  content: ToolResultContent[];
  /** Structured data for logs and UI; never sent to the model. */
  details?: unknown;
  /** A refusal or failure the model can read and act on. */
  isError: boolean;
}

export interface ToolContext {
  toolCallId: string;
  signal: AbortSignal | undefined;
}

/**
 * A tool whose input is whatever its schema says: `parameters` is the one TypeBox schema behind the
 * model-facing definition, validation and docs, and `execute` receives `Static<S>`.
 */
export interface ToolDefinition<S extends TSchema = TSchema> {
  name: string;
  label: string;
  description: string;
  /** JSON Schema (TypeBox-built), the one schema behind the model-facing definition, validation and docs. */
  parameters: S;
  /** Strict validation of raw model input against `parameters`, with a readable message naming each bad field. */
  validate(raw: unknown): ValidationResult<Static<S>>;
  /** Runs the tool. Must not throw for expected refusals: return `isError: true` with a readable text. */
  execute(input: Static<S>, context: ToolContext): Promise<ToolOutcome>;
}

/** Declares a tool, inferring its input type from its schema. */
export function defineTool<S extends TSchema>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

export function textOutcome(text: string, isError = false, details?: unknown): ToolOutcome {
  return { content: [{ type: "text", text }], isError, details };
}
