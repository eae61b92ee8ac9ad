// What the sources themselves must hold to, read from the files on disk: product code does not import
// the test helpers; the company tools and the connector and harness kinds are listed only in their
// registries (anywhere else a list goes stale when one is added); comments cite rules, not issue
// numbers; and the company package's folders import one another without a cycle.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { COMPANY_TOOL_NAMES } from "@cadre/company";
import { CONNECTOR_KINDS, HARNESS_KINDS } from "@cadre/model";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const PACKAGES = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const REPO = dirname(PACKAGES);

/** Every TypeScript source under packages/<name>/src, as a path relative to the repository. */
function sources(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts"))
        out.push(relative(REPO, path).split(sep).join("/"));
    }
  };
  for (const pkg of readdirSync(PACKAGES, { withFileTypes: true }))
    if (pkg.isDirectory()) {
      try {
        walk(join(PACKAGES, pkg.name, "src"));
      } catch {
        // a package without src/ has no sources to scan
      }
    }
  return out.sort();
}

/**
 * A test, a test helper, a browser test or a measurement (`npm run bench`): not what the product
 * runs. Anything else is product source.
 */
function isTestOrBench(path: string): boolean {
  return /\.test\.tsx?$/.test(path) || /\/(testing|e2e|bench)\//.test(path);
}

const ALL = sources();
const PRODUCT = ALL.filter((p) => !isTestOrBench(p));
const parsed = new Map<string, ts.SourceFile>();
function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (!file) {
    const text = readFileSync(join(REPO, path), "utf8");
    file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    parsed.set(path, file);
  }
  return file;
}
const lineOf = (file: ts.SourceFile, node: ts.Node) =>
  file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1;

/** The module specifiers a file imports or re-exports (static and dynamic). */
function specifiers(file: ts.SourceFile): Array<{ spec: string; line: number }> {
  const out: Array<{ spec: string; line: number }> = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      out.push({ spec: node.moduleSpecifier.text, line: lineOf(file, node) });
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    )
      out.push({ spec: node.arguments[0].text, line: lineOf(file, node) });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe("product sources", () => {
  it("import no test helper: `@cadre/core/testing` is for tests (the offline model is `@cadre/core/offline`)", () => {
    const found = PRODUCT.flatMap((path) =>
      specifiers(parse(path))
        .filter(({ spec }) => spec === "@cadre/core/testing" || spec === "@cadre/model/testing")
        .map(({ spec, line }) => `${path}:${line} imports ${spec}`),
    );
    expect(found).toEqual([]);
  });
});

/** Where each vocabulary may be listed: its registry. */
const REGISTRIES = [
  {
    what: "company tool names",
    names: new Set<string>(COMPANY_TOOL_NAMES),
    home: ["packages/company/src/tools/"],
    instead: "read the tool registry (COMPANY_TOOLS, companyTool, the company view's toolsOffered)",
  },
  {
    what: "connector kinds",
    names: new Set<string>(CONNECTOR_KINDS),
    // core's model registry keys its vendor catalogues by the vendors pi-ai catalogues (two of the
    // kinds' names): it is the registry of those models.
    home: [
      "packages/model/src/vocabulary.ts",
      "packages/company/src/connectors/kinds/",
      "packages/core/src/models/",
    ],
    instead: "read CONNECTOR_KINDS or the kind's driver",
  },
  {
    what: "harness kinds",
    names: new Set<string>(HARNESS_KINDS),
    home: ["packages/model/src/vocabulary.ts", "packages/company/src/connectors/kinds/"],
    instead: "read HARNESS_KINDS or the kind's driver",
  },
];

/** The string literals of an array literal or a union type, when every member is one. */
function literalList(node: ts.Node): string[] | undefined {
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((e) => (ts.isStringLiteralLike(e) ? e.text : undefined));
    return items.every((s) => s !== undefined) ? (items as string[]) : undefined;
  }
  if (ts.isUnionTypeNode(node)) {
    const items = node.types.map((t) =>
      ts.isLiteralTypeNode(t) && ts.isStringLiteral(t.literal) ? t.literal.text : undefined,
    );
    return items.every((s) => s !== undefined) ? (items as string[]) : undefined;
  }
  return undefined;
}

describe("vocabulary lists", () => {
  for (const registry of REGISTRIES)
    it(`list ${registry.what} only in their registry`, () => {
      const found: string[] = [];
      for (const path of PRODUCT) {
        if (registry.home.some((home) => path.startsWith(home))) continue;
        const file = parse(path);
        const visit = (node: ts.Node) => {
          const items = literalList(node);
          const named = items?.filter((s) => registry.names.has(s)) ?? [];
          if (named.length >= 2)
            found.push(`${path}:${lineOf(file, node)} lists ${named.join(", ")}; ${registry.instead}`);
          ts.forEachChild(node, visit);
        };
        visit(file);
      }
      expect(found).toEqual([]);
    });

  it("know every name the scan looks for", () => {
    // A registry read empty would make the scan above pass whatever the sources say.
    for (const registry of REGISTRIES) expect(registry.names.size).toBeGreaterThanOrEqual(3);
  });
});

/** An issue number cited in a comment or a test name: the word issue and a number, or `(#` and one. */
const ISSUE_REF = /\bissues?\s+#?\d+\b|(?:^|[\s(,])#\d{1,4}\b(?![\w-])/i;

describe("comments", () => {
  it("cite rules and their glossary, not issue numbers (the issues are not in the repository)", () => {
    const found: string[] = [];
    for (const path of ALL) {
      const file = parse(path);
      const text = file.getFullText();
      const spans: Array<{ pos: number; text: string }> = [];
      const visit = (node: ts.Node) => {
        for (const range of [
          ...(ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []),
          ...(ts.getTrailingCommentRanges(text, node.getEnd()) ?? []),
        ])
          spans.push({ pos: range.pos, text: text.slice(range.pos, range.end) });
        // test names: the first argument of describe/it/test
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          ["describe", "it", "test"].includes(node.expression.text) &&
          node.arguments[0] &&
          ts.isStringLiteralLike(node.arguments[0])
        )
          spans.push({ pos: node.arguments[0].getStart(file), text: node.arguments[0].text });
        ts.forEachChild(node, visit);
      };
      visit(file);
      const seen = new Set<number>();
      for (const span of spans) {
        if (seen.has(span.pos)) continue;
        seen.add(span.pos);
        const match = ISSUE_REF.exec(span.text);
        if (match) {
          const line = file.getLineAndCharacterOfPosition(span.pos + match.index).line + 1;
          found.push(`${path}:${line}: "${match[0].trim()}"`);
        }
      }
    }
    expect(found).toEqual([]);
  });
});

/** A company source's node in the folder graph: its top folder, or the file itself at the top. */
const COMPANY = "packages/company/src/";
const nodeOf = (path: string) => path.slice(COMPANY.length).replace(/\.js$/, ".ts").split("/")[0]!;

/**
 * The imports that still close a cycle between the company's folders, each to be cut by moving what
 * it reaches for to the folder below (the list only shrinks: an edge cut must leave it). Without
 * them the graph is acyclic, so any other import that closes a cycle fails the test below.
 */
const CYCLE_EDGES_TO_CUT = [
  "agent-session.ts -> prompts",
  "budgets -> work",
  "connectors -> profiles",
  "harness-connectors.ts -> connectors",
  "harness-connectors.ts -> team",
  "messages -> work",
  "offline -> prompts",
  "offline -> work",
  "profiles -> team",
  "profiles -> tools",
  "recovery -> work",
  "team -> work",
  "wake.ts -> prompts",
  "wake.ts -> wake",
];

/** A cycle in a directed graph, as the nodes along it (first repeated last), or undefined. */
function findCycle(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, "open");
    stack.push(node);
    for (const next of [...(edges.get(node) ?? [])].sort()) {
      if (state.get(next) === "open") return [...stack.slice(stack.indexOf(next)), next];
      if (!state.has(next)) {
        const cycle = visit(next);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of [...edges.keys()].sort())
    if (!state.has(node)) {
      const cycle = visit(node);
      if (cycle) return cycle;
    }
  return undefined;
}

describe("the company package's folders", () => {
  // Each folder's product sources, by relative import; the package's entry (index.ts) re-exports
  // every folder: it is the surface, not a dependency.
  const edges = new Map<string, Set<string>>();
  const where = new Map<string, string>();
  for (const path of PRODUCT.filter((p) => p.startsWith(COMPANY) && p !== `${COMPANY}index.ts`)) {
    const from = nodeOf(path);
    for (const { spec, line } of specifiers(parse(path))) {
      if (!spec.startsWith(".")) continue;
      const target = join(dirname(path), spec).split(sep).join("/");
      const to = nodeOf(target);
      if (to === from || !target.startsWith(COMPANY)) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
      if (!where.has(`${from} -> ${to}`)) where.set(`${from} -> ${to}`, `${path}:${line}`);
    }
  }

  it("import one another without a cycle beyond the imports still to cut", () => {
    const kept = new Map(
      [...edges].map(([from, tos]) => [
        from,
        new Set([...tos].filter((to) => !CYCLE_EDGES_TO_CUT.includes(`${from} -> ${to}`))),
      ]),
    );
    const cycle = findCycle(kept);
    const steps = cycle
      ?.slice(1)
      .map((to, i) => `${cycle[i]} -> ${to} (${where.get(`${cycle[i]} -> ${to}`)})`);
    expect(steps ?? []).toEqual([]);
  });

  it("list only imports that still exist among those to cut", () => {
    expect(CYCLE_EDGES_TO_CUT.filter((edge) => !where.has(edge))).toEqual([]);
  });

  it("finds a cycle where there is one", () => {
    const graph = new Map([
      ["a", new Set(["b"])],
      ["b", new Set(["c"])],
      ["c", new Set(["a"])],
    ]);
    expect(findCycle(graph)).toEqual(["a", "b", "c", "a"]);
    expect(findCycle(new Map([["a", new Set(["b"])]]))).toBeUndefined();
  });
});
