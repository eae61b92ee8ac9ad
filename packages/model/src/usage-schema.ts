// The documented JSON shape of a run's counters (see usage.ts), as a schema for the API's documents
// and the trace files. Apart from usage.ts so that code needing only the functions loads no schema.
import { type Static, Type } from "typebox";

const count = (description: string) => Type.Integer({ minimum: 0, description });

/** A run's counters as the API, the CLI's --json and trace files spell them. */
export const UsageCountersSchema = Type.Object(
  {
    inputTokens: count("Uncached input tokens."),
    outputTokens: count("Output tokens."),
    cacheReadTokens: count("Input tokens read from the prompt cache."),
    cacheWriteTokens: count("Input tokens written to the prompt cache."),
  },
  { additionalProperties: false },
);
export type UsageCounters = Static<typeof UsageCountersSchema>;
