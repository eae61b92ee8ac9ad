// The lazily loaded counter is the tokenizer's own o200k_base encoder: the same counts as its ESM
// entry gives, for any text (estimates, cue sizes and budget reservations depend on them).
import { countTokens as esmCount } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens } from "./tokens.js";

describe("countTokens", () => {
  it("counts as the tokenizer's ESM encoder does", () => {
    const texts = [
      "",
      "Start building your team.",
      "naïve café — 東京 🙂 \u0000 tabs\tand\nnewlines",
      JSON.stringify({ tools: [{ name: "hire_agent", description: "Hire a new agent." }] }),
      "word ".repeat(2000),
    ];
    for (const text of texts) expect(countTokens(text)).toBe(esmCount(text));
    expect(countTokens("Start building your team.")).toBeGreaterThan(0);
  });
});
