// The operator dashboard's built files (packages/web/dist), served at `/` beside the API so that
// `cadre serve` needs no second process. Only files inside the build folder are reachable: the
// path must be plain (letters, digits, `.`, `_`, `-`, `/`, no `..`), and is resolved and checked
// against the folder. Vite names every asset by its content hash, so assets are cached for good
// while index.html is never cached (a rebuild is picked up on the next load).
import { readFile } from "node:fs/promises";
import { extname, join, resolve, sep } from "node:path";
import type { Context } from "hono";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

/**
 * The dashboard talks to this origin only (fetch and its event stream); scripts and styles are
 * files of the build. Inline `style` attributes are allowed because the chart library sizes its
 * canvas through them.
 */
export const DASHBOARD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const PLAIN_PATH = /^\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*(?:[A-Za-z0-9_-][A-Za-z0-9._-]*)?$/;

/** The file a request path names inside `root`, or undefined when the path is not a plain one. */
export function dashboardFile(root: string, path: string): string | undefined {
  if (!PLAIN_PATH.test(path) || path.split("/").some((part) => part === "..")) return undefined;
  const base = resolve(root);
  const file = resolve(base, `.${path.endsWith("/") ? `${path}index.html` : path}`);
  return file === base || !file.startsWith(base + sep) ? undefined : file;
}

/** A GET/HEAD handler for the build folder `root`; answers undefined for paths it does not serve. */
export function dashboardHandler(root: string) {
  return async (c: Context): Promise<Response | undefined> => {
    const file = dashboardFile(root, c.req.path);
    if (!file) return undefined;
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      if (c.req.path === "/") {
        return c.json(
          {
            error: {
              code: "not_found",
              message: `the dashboard is not built (no ${join(root, "index.html")}); run npm run build`,
            },
          },
          404,
        );
      }
      return undefined;
    }
    const type = TYPES[extname(file)] ?? "application/octet-stream";
    const immutable = c.req.path.startsWith("/assets/");
    const headers: Record<string, string> = {
      "Content-Type": type,
      "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
      "Referrer-Policy": "no-referrer",
    };
    if (type.startsWith("text/html")) headers["Content-Security-Policy"] = DASHBOARD_CSP;
    return c.req.method === "HEAD" ? c.body(null, 200, headers) : c.body(new Uint8Array(body), 200, headers);
  };
}
