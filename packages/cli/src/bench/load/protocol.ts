// What the bench process asks of its load generator (a forked child, generator.ts) and what it
// hears back, one message each way per load: the shapes @cadre/server's benchServer drives.
export type { LoadResult, LoadSpec } from "@cadre/server";
