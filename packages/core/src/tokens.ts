// Token counting (o200k_base) for every estimate Cadre makes in code. The encoder's tables take
// longer to load than the rest of a read command (`cadre company show` never counts a token), so
// they load on the first count, not at import: a synchronous require of the package's CommonJS
// build, the same encoder its ESM entry exports.
import { createRequire } from "node:module";

type Counter = (text: string) => number;
let counter: Counter | undefined;

/** Tokens in `text` under o200k_base (the tokenizer of the current OpenAI models). */
export function countTokens(text: string): number {
  counter ??= (
    createRequire(import.meta.url)("gpt-tokenizer/cjs/encoding/o200k_base") as { countTokens: Counter }
  ).countTokens;
  return counter(text);
}
