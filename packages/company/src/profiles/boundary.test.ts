// The legacy profile is a plugin: outside the profile folders (`src/profiles/` of any
// package) no source names it in code — no comparison with or selection of "legacy", no legacy*
// identifier, no import of a legacy module. The wake, the routes, the CLI and the evals ask a
// profile's driver instead (ProfileDriver.needsApi, its tools, cue, documents and routes). Comments,
// help texts and tests may still talk about the legacy path: they describe it, they do not branch.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PACKAGES = fileURLToPath(new URL("../../../", import.meta.url));

/** Where naming the profile is the point: the vocabulary lists the profiles by name. */
const ALLOWED: Readonly<Record<string, RegExp>> = {
  "model/src/vocabulary.ts": /^export const PROMPT_PROFILES = \[/,
};

/** Code that names the legacy profile: its name as a string, a legacy* identifier, a legacy module. */
const NAMES_LEGACY = [
  /["'`]legacy["'`]/,
  /\blegacy[A-Z]\w*/,
  /\bLegacy\w*/,
  /from\s+["'][^"']*legacy[^"']*["']/,
  /import\(\s*["'][^"']*legacy[^"']*["']\s*\)/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return ["node_modules", "dist", "profiles", "testing"].includes(entry.name) ? [] : sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Lines of code: whole-line comments and block comments dropped. */
function codeLines(text: string): Array<{ n: number; line: string }> {
  let inBlock = false;
  return text.split("\n").flatMap((line, i) => {
    const t = line.trim();
    if (inBlock) {
      if (t.includes("*/")) inBlock = false;
      return [];
    }
    if (t.startsWith("/*")) {
      inBlock = !t.includes("*/");
      return [];
    }
    return t.startsWith("//") || t.startsWith("*") ? [] : [{ n: i + 1, line }];
  });
}

export function legacyReferences(root: string): string[] {
  const found: string[] = [];
  for (const pkg of readdirSync(root, { withFileTypes: true })) {
    if (!pkg.isDirectory()) continue;
    const src = join(root, pkg.name, "src");
    let files: string[];
    try {
      files = sources(src);
    } catch {
      continue;
    }
    for (const file of files) {
      const rel = relative(root, file);
      for (const { n, line } of codeLines(readFileSync(file, "utf8"))) {
        if (ALLOWED[rel]?.test(line.trim())) continue;
        if (NAMES_LEGACY.some((re) => re.test(line))) found.push(`${rel}:${n}: ${line.trim()}`);
      }
    }
  }
  return found;
}

describe("the legacy profile stays inside the profile folders", () => {
  it("no source outside src/profiles/ names it in code", () => {
    expect(legacyReferences(PACKAGES)).toEqual([]);
  });

  it("the check finds what it is meant to find (it can fail)", () => {
    const lines = codeLines(
      [
        "// a comment about legacyCue is fine",
        'if (profile === "legacy") run();',
        "const run = legacyCue(url, id);",
        'import { x } from "./legacy/profile.js";',
        "/* block",
        '   "legacy" */',
        "const fine = `--profile semantic|legacy`;",
      ].join("\n"),
    ).filter(({ line }) => NAMES_LEGACY.some((re) => re.test(line)));
    expect(lines.map((l) => l.n)).toEqual([2, 3, 4]);
  });
});
