// Reads the recorded-format fixtures beside each translator. Used by the tests and the bench
// (off the hot path: async reads only).
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { TranslatorFormat } from "../translators/registry.js";

export interface Fixture {
  name: string;
  bytes: Uint8Array;
}

/**
 * Where each format's recorded fixtures live, relative to src/: beside their translator (a harness's
 * own format in its harness folder, a vendor wire format under translators/).
 */
const FIXTURE_DIRS: Readonly<Record<TranslatorFormat, string>> = {
  "anthropic-sse": "translators/anthropic-sse/__fixtures__/",
  "openai-chat-sse": "translators/openai-chat-sse/__fixtures__/",
  "openai-responses-sse": "translators/openai-responses-sse/__fixtures__/",
  "claude-code-jsonl": "harness/claude-code/translate/__fixtures__/",
  "codex-jsonl": "harness/codex/translate/__fixtures__/",
  "pi-jsonl": "harness/pi/__fixtures__/",
};

/** Fixtures of one format, sorted by name. Works from src/ and from a built dist/. */
export async function readFixtures(format: TranslatorFormat): Promise<Fixture[]> {
  const dir = fixtureDir(format);
  const names = (await readdir(dir)).filter((n) => n.endsWith(".sse") || n.endsWith(".jsonl")).sort();
  return Promise.all(
    names.map(async (name) => ({ name, bytes: new Uint8Array(await readFile(dir + name)) })),
  );
}

function fixtureDir(format: TranslatorFormat): string {
  const here = fileURLToPath(new URL(`../${FIXTURE_DIRS[format]}`, import.meta.url));
  // The build does not copy fixtures: from dist/, read them from the sources.
  return here.replace(/([\\/])dist([\\/])/, "$1src$2");
}

/** The bytes as an async stream of chunks of `size` bytes (1 = every split point). */
export async function* chunked(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** The bytes split at the given offsets. */
export async function* splitAt(bytes: Uint8Array, ...offsets: number[]): AsyncGenerator<Uint8Array> {
  let from = 0;
  for (const at of offsets) {
    yield bytes.subarray(from, at);
    from = at;
  }
  yield bytes.subarray(from);
}
