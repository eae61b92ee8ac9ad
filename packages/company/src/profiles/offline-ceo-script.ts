// The offline CEO (the offline connector's script, `@cadre/core/offline`): the product's own, unless
// a profile's offline CEO recognises the request as its own (e.g. offered a shell and no company
// tools) and plays it.
import type { Script } from "@cadre/core/offline";
import { semanticCeoScript } from "../offline/ceo-script.js";
import { PROFILE_DRIVERS } from "./registry.js";

export const offlineCeoScript: Script = (request) => {
  for (const driver of Object.values(PROFILE_DRIVERS)) {
    const reply = driver.offlineCeo?.(request);
    if (reply) return reply;
  }
  return semanticCeoScript(request);
};
