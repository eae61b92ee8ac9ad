// What `cadre serve` sets up for the prompt profiles (C4-7) from its flags: the options their
// server routes read, decided (and refused) before anything starts, recorded once the data
// directory is open.
import type { CliIO } from "../io.js";
import { legacyServeSetup } from "./legacy/retirement.js";

export interface ProfileServeSetup {
  /** Spread into startServer's options. */
  server: { retireLegacyPosts: boolean };
  record(dataDir: string, io: CliIO): Promise<void>;
}

export async function profileServeSetup(
  values: Parameters<typeof legacyServeSetup>[0],
): Promise<ProfileServeSetup> {
  return legacyServeSetup(values);
}
