// The behaviour every Store must show, whatever its dialect. A dialect's test file calls
// storeContract with a function that opens a fresh, empty store; each test gets its own.
import { afterEach, beforeEach, describe, vi } from "vitest";
import type { Store } from "../types.js";
import { agentSessionContract } from "./agent-sessions.contract.js";
import { approvalContract } from "./approvals.contract.js";
import { budgetContract } from "./budgets.contract.js";
import { concurrencyContract } from "./concurrency.contract.js";
import { entityContract } from "./entities.contract.js";
import { feedContract } from "./feed.contract.js";
import { agentContract, companyContract, connectorContract } from "./records.contract.js";
import { pageContract } from "./pages.contract.js";
import { peopleContract } from "./people.contract.js";
import { runContract } from "./runs.contract.js";
import { spendTotalsContract } from "./spend-totals.contract.js";
import { taskContract } from "./tasks.contract.js";
import { taskFileContract } from "./task-files.contract.js";
import { textContract } from "./text.contract.js";
import { tokenContract } from "./tokens.contract.js";
import { toolCallContract } from "./tool-calls.contract.js";
import { transactionContract } from "./transactions.contract.js";
import { wakeContract } from "./wakes.contract.js";

export function storeContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store | undefined;
    const current = (): Store => {
      if (store === undefined) throw new Error("no store is open");
      return store;
    };

    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      vi.useRealTimers();
      await store?.close();
      store = undefined;
    });

    companyContract(current);
    connectorContract(current);
    agentContract(current);
    approvalContract(current);
    runContract(current);
    transactionContract(current, open);
    textContract(current);
    tokenContract(current);
    feedContract(current);
    concurrencyContract(current);
    wakeContract(current);
    toolCallContract(current);
    agentSessionContract(current);
    budgetContract(current);
    taskContract(current);
    taskFileContract(current);
    pageContract(current);
    spendTotalsContract(current);
    peopleContract(current);
    entityContract(current);
  });
}
