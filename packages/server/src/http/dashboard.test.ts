// The built dashboard served at `/`: its files with the right types and cache rules, nothing
// outside the build folder, and the API's own answers untouched.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type TestApp, testApp } from "../testing/harness.js";
import { DASHBOARD_CSP, dashboardFile } from "./dashboard.js";

let dir: string;
let app: TestApp | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-web-"));
  await mkdir(join(dir, "dist", "assets"), { recursive: true });
  await writeFile(join(dir, "dist", "index.html"), "<!doctype html><title>Cadre</title>");
  await writeFile(join(dir, "dist", "assets", "index-abc123.js"), "console.log(1)");
  // A file beside the build folder that must never be reachable.
  await writeFile(join(dir, "secret.txt"), "do not serve");
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  await rm(dir, { recursive: true, force: true });
});

const get = (path: string, method = "GET") => app!.cadre.app.request(path, { method });

describe("dashboard files", () => {
  it("serves index.html at / with a content security policy, and hashed assets as immutable", async () => {
    app = await testApp({ webRoot: join(dir, "dist") });
    const index = await get("/");
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("content-security-policy")).toBe(DASHBOARD_CSP);
    expect(index.headers.get("cache-control")).toBe("no-cache");
    expect(await index.text()).toContain("<title>Cadre</title>");
    const asset = await get("/assets/index-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const head = await get("/", "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });

  it("reaches nothing outside the build folder and leaves the API's answers alone", async () => {
    app = await testApp({ webRoot: join(dir, "dist") });
    for (const path of [
      "/../secret.txt",
      "/assets/../../secret.txt",
      "/%2e%2e/secret.txt",
      "/assets/missing.js",
      "/.hidden",
    ]) {
      const r = await get(path);
      expect(r.status, path).toBe(404);
      expect(await r.text(), path).not.toContain("do not serve");
    }
    expect((await get("/healthz")).status).toBe(200);
    const unknownApi = await get("/api/nothing-here");
    expect(unknownApi.status).toBe(404);
    expect(((await unknownApi.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await get("/api/companies")).status).toBe(401);
    expect((await get("/", "POST")).status).toBe(404);
  });

  it("says how to build the dashboard when it is missing, and serves nothing without a web root", async () => {
    app = await testApp({ webRoot: join(dir, "not-built") });
    const r = await get("/");
    expect(r.status).toBe(404);
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(
      /dashboard is not built.*npm run build/,
    );
    await app.close();
    app = await testApp();
    expect((await get("/")).status).toBe(404);
  });

  it("maps only plain paths to files inside the root", () => {
    const root = join(dir, "dist");
    expect(dashboardFile(root, "/")).toBe(join(root, "index.html"));
    expect(dashboardFile(root, "/assets/a-1.js")).toBe(join(root, "assets", "a-1.js"));
    for (const bad of ["", "/..", "/a/../b", "/a//b", "/a\\b", "/a b", "/.env", "/assets/.git/x"])
      expect(dashboardFile(root, bad), bad).toBeUndefined();
  });
});
