// The CPU readings of the worker benchmark: a process's own from /proc, the machine's, and the
// database backends' between two readings.
import { describe, expect, it } from "vitest";
import { backendCpuBetween, cpuMs, machineCpu } from "./cpu.js";

const linux = process.platform === "linux";

describe("worker benchmark CPU", () => {
  it.runIf(linux)("reads this process's CPU and the machine's, which grow as work is done", async () => {
    const before = (await cpuMs(process.pid))!;
    const machine = (await machineCpu())!;
    let x = 0;
    for (const end = Date.now() + 60; Date.now() < end;) x += Math.sqrt(x + 1);
    expect(x).toBeGreaterThan(0);
    expect(await cpuMs(process.pid)).toBeGreaterThan(before);
    const after = (await machineCpu())!;
    expect(after.busy).toBeGreaterThan(machine.busy);
    expect(after.total - machine.total).toBeGreaterThanOrEqual(after.busy - machine.busy);
  });

  it("has no reading for a process that does not exist", async () => {
    expect(await cpuMs(2 ** 30)).toBeUndefined();
  });

  it("counts a backend opened between the readings from zero, and one gone since not at all", () => {
    const before = new Map([
      [10, 100],
      [11, 50],
    ]);
    const after = new Map([
      [10, 130],
      [12, 20],
    ]);
    expect(backendCpuBetween(before, after)).toBe(50);
  });
});
