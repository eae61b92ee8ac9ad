import { expect, it } from "vitest";
import { normaliseArgs, normaliseText } from "./normalise.js";

it("records two samples that did the same task work the same way: task, comment, wake-request and schedule ids are masked", () => {
  const a = normaliseArgs({
    taskId: "task_Ab12Cd34Ef",
    text: "see tcm_Zz99Yy88 and wrq_0011aabb on sch_QwErTy12",
  });
  const b = normaliseArgs({
    taskId: "task_Xy98Wv76Ut",
    text: "see tcm_Aa11Bb22 and wrq_ffee9988 on sch_AsDfGh34",
  });
  expect(a).toEqual(b);
  expect(a).toEqual({ taskId: "task_*", text: "see tcm_* and wrq_* on sch_*" });
});

it("leaves words that only look like a prefix alone", () => {
  expect(normaliseText("the task_list and a taskforce")).toBe("the task_list and a taskforce");
});
