// The stored 10,000-event run the dashboard's long-run test opens. Defined beside the benchmark that
// measures the same page (packages/cli/src/bench/dashboard.ts), so that the test and the timing
// read one run.
export { longRunEvents, prepareLongRun } from "../../../../cli/src/bench/long-run-data.js";
