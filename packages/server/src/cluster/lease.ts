// The wake lease lives in @cadre/company since every run holds one, in-process runs too (see
// company/src/lease.ts); the cluster's workers hold theirs the same way.
export { LeaseLostError, WakeLease } from "@cadre/company";
