// The sign-in link's token: read from the fragment, then taken out of it.
import { describe, expect, it } from "vitest";
import { hashWithoutToken, sessionTokenStore, takeTokenFromLocation, tokenFromHash } from "./token.js";

describe("sign-in token", () => {
  it("is read from #token=… and nothing else", () => {
    expect(tokenFromHash("#token=cadre_op_abc-DEF_123")).toBe("cadre_op_abc-DEF_123");
    expect(tokenFromHash("#token=abc&x=1")).toBe("abc");
    expect(tokenFromHash("#/companies/c1")).toBeUndefined();
    expect(tokenFromHash("#token=")).toBeUndefined();
    expect(tokenFromHash("")).toBeUndefined();
  });

  it("leaves the fragment without it, keeping anything else", () => {
    expect(hashWithoutToken("#token=abc")).toBe("");
    expect(hashWithoutToken("#token=abc&x=1")).toBe("#x=1");
    expect(hashWithoutToken("#/companies/c1")).toBe("#/companies/c1");
  });

  it("is taken out of the address bar, replacing the history entry", () => {
    const replaced: string[] = [];
    const hist = {
      replaceState: (_: unknown, __: string, url?: string | URL | null) => void replaced.push(String(url)),
    };
    expect(takeTokenFromLocation({ hash: "#token=abc", pathname: "/", search: "" }, hist)).toBe("abc");
    expect(replaced).toEqual(["/#/"]);
    expect(
      takeTokenFromLocation({ hash: "#/companies/c1", pathname: "/", search: "" }, hist),
    ).toBeUndefined();
    expect(replaced).toHaveLength(1);
  });

  it("is kept under one key of the tab's session storage", () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
    const store = sessionTokenStore(storage);
    expect(store.get()).toBeUndefined();
    store.set("tok");
    expect(store.get()).toBe("tok");
    expect([...data.keys()]).toEqual(["cadre.operatorToken"]);
    store.clear();
    expect(store.get()).toBeUndefined();
  });
});
