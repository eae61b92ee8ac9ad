// The model catalog entry that keeps the company tools up front. Codex decides per model,
// from its catalog, whether MCP tools are deferred behind a `tool_search` tool
// (`supports_search_tool: true`, e.g. its bundled gpt-5.5: the model then sees no company tool until it
// searches for one) and whether `apply_patch` (file writing) is offered. A model the catalog does not
// know runs on fallback metadata, with an error item saying so. So every session gets a catalog
// (`model_catalog_json`, which replaces the bundled one) with one entry: the session's model, its
// context window from our registry, no tool search, no apply_patch, no skills/plugins/apps texts, and
// everything else — Codex's own base instructions included — taken from the closest entry of the
// catalog bundled with this very binary (`codex debug models --bundled`: offline, no refresh).
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, mkdir, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { ModelInfo } from "../../types.js";

const run = promisify(execFile);

type Entry = Record<string, unknown> & { slug?: unknown };

/** The fields Codex 0.163 requires of an entry (found by minimising one). */
const COPIED = [
  "supported_reasoning_levels",
  "default_reasoning_level",
  "shell_type",
  "support_verbosity",
  "default_verbosity",
  "truncation_policy",
] as const;

const bundled = new Map<string, Promise<Entry[]>>();

/** The catalog bundled with this Codex binary, read once per process and binary. */
function bundledCatalog(executable: string): Promise<Entry[]> {
  let models = bundled.get(executable);
  if (!models) {
    models = (async () => {
      // A throwaway CODEX_HOME: reading the catalog must not touch (or be changed by) the user's.
      const home = await mkdtemp(join(tmpdir(), "cadre-codex-catalog-"));
      try {
        const { stdout } = await run(executable, ["debug", "models", "--bundled"], {
          env: { PATH: process.env["PATH"] ?? "", HOME: home, CODEX_HOME: home },
          maxBuffer: 64 * 1024 * 1024,
          timeout: 30_000,
        });
        const parsed = JSON.parse(stdout) as { models?: unknown };
        if (!Array.isArray(parsed.models) || parsed.models.length === 0)
          throw new Error("its catalog lists no models");
        return parsed.models as Entry[];
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    })();
    models.catch(() => bundled.delete(executable)); // a failure is not cached
    bundled.set(executable, models);
  }
  return models;
}

/** The bundled entry closest to a model id: the longest slug it starts with, else gpt-5.5, else the first. */
function closest(models: readonly Entry[], id: string): Entry {
  const slugOf = (m: Entry) => (typeof m.slug === "string" ? m.slug : "");
  const prefixed = models.filter((m) => slugOf(m) !== "" && id.startsWith(slugOf(m)));
  prefixed.sort((a, b) => slugOf(b).length - slugOf(a).length);
  return prefixed[0] ?? models.find((m) => slugOf(m) === "gpt-5.5") ?? (models[0] as Entry);
}

/** The session's catalog entry: see the header. */
export function catalogEntry(base: Entry, model: ModelInfo, fileTools = false): Entry {
  const messages = base["model_messages"] as { instructions_template?: unknown } | undefined;
  const instructions = base["base_instructions"] ?? messages?.instructions_template;
  if (typeof instructions !== "string" || instructions === "")
    throw new Error(`its catalog entry ${String(base.slug)} has no base instructions`);
  const entry: Entry = {
    slug: model.id,
    display_name: model.id,
    description: `${model.id} (catalog entry written by Cadre: MCP tools up front, ${fileTools ? "apply_patch" : "no apply_patch"})`,
    visibility: "list",
    supported_in_api: true,
    priority: 1,
    experimental_supported_tools: [],
    base_instructions: instructions,
    context_window: model.contextWindow,
    supports_search_tool: false,
    // A member's file tool (Codex 0.163 knows only its freeform kind), held to the workspace by the sandbox.
    apply_patch_tool_type: fileTools ? "freeform" : null,
    include_skills_usage_instructions: false,
    include_plugin_usage_instructions: false,
    include_apps_usage_instructions: false,
  };
  for (const key of COPIED) if (base[key] !== undefined) entry[key] = base[key];
  return entry;
}

/**
 * Writes (once; the name is the content's hash) the catalog for `model` and returns its path. Throws,
 * saying why, when this Codex binary's bundled catalog cannot be read.
 */
export async function codexModelCatalog(
  executable: string,
  model: ModelInfo,
  fileTools = false,
): Promise<string> {
  let models: Entry[];
  try {
    models = await bundledCatalog(executable);
  } catch (error) {
    throw new Error(
      `cannot write the model catalog that keeps Codex's MCP tools up front: \`${executable} debug models --bundled\` failed (${error instanceof Error ? error.message.split("\n")[0] : String(error)})`,
    );
  }
  const text = `${JSON.stringify({ models: [catalogEntry(closest(models, model.id), model, fileTools)] })}\n`;
  const dir = join(tmpdir(), "cadre-codex");
  await mkdir(dir, { recursive: true });
  const file = join(dir, `catalog-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.json`);
  // Written whole, then renamed into place: a Codex reading it never sees half a file.
  const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(partial, text);
  await rename(partial, file);
  return file;
}
