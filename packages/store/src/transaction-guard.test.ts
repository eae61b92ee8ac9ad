// The no-I/O-in-transactions guard (testing/no-io-in-transactions.ts) catches what it claims to:
// sync fs calls made inside a transaction — directly or several helpers deep, through awaits — and
// probes refusing to start there; it leaves alone the same calls before or after a transaction.
import { existsSync, statSync } from "node:fs";
import * as fsNamespace from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./index.js";
import { takeTransactionViolations } from "./testing/no-io-in-transactions.js";
import { forbidInsideTransaction, WorkInsideTransactionError } from "./transaction-scope.js";

let store: Store | undefined;
afterEach(async () => {
  await store?.close();
  store = undefined;
});

async function open(): Promise<Store> {
  store = await openStore({ memory: true });
  return store;
}

/** A helper two modules away, as `isRunnable` along PATH is from hire_agent. */
async function deepHelper(): Promise<boolean> {
  await Promise.resolve();
  return (() => existsSync("/definitely/not/here"))();
}

describe("the no-I/O-in-transactions guard", () => {
  it("reports a sync fs call made directly inside a transaction", async () => {
    const s = await open();
    await s.transaction(async (tx) => {
      await tx.listCompanies();
      statSync("/");
    });
    expect(takeTransactionViolations().map((v) => v.what)).toEqual(["fs.statSync"]);
  });

  it("reports one reached through helpers and awaits, and through the fs namespace", async () => {
    const s = await open();
    await s.transaction(async () => {
      await deepHelper();
      fsNamespace.readdirSync("/");
    });
    const found = takeTransactionViolations();
    expect(found.map((v) => v.what)).toEqual(["fs.existsSync", "fs.readdirSync"]);
    expect(found[0]?.stack).toContain("deepHelper");
  });

  it("makes a probe refuse to start inside a transaction, and reports it even when the caller catches", async () => {
    const s = await open();
    const error = await s
      .transaction(async () => {
        try {
          forbidInsideTransaction("connector probe");
        } catch (e) {
          return e;
        }
        return undefined;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkInsideTransactionError);
    expect(takeTransactionViolations().map((v) => v.what)).toEqual(["connector probe"]);
  });

  it("leaves the same calls alone before and after a transaction, and in a timer that outlives it", async () => {
    const s = await open();
    statSync("/");
    let timer: Promise<void> | undefined;
    await s.transaction(async (tx) => {
      await tx.listCompanies();
      timer = new Promise((resolve) => setTimeout(() => (existsSync("/"), resolve()), 20));
    });
    await timer;
    existsSync("/");
    forbidInsideTransaction("connector probe");
    expect(takeTransactionViolations()).toEqual([]);
  });
});
