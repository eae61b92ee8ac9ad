// @cadre/standin: stand-in model servers on loopback, speaking the vendors' real wire protocols,
// answered by scripted policies. Offline test doubles for the model only; they say so.
export * from "./types.js";
export { startStandin, type ModelCall, type StandinOptions, type StandinServer } from "./server.js";
export { ROUTES } from "./handle.js";
export { STANDIN_HEADER, standinId } from "./ids.js";
export { deferredToolNames, findDeferredTool, findTool, qualifiedName, toolNames } from "./tools.js";
export { reply } from "./policies/replies.js";
export { scripted, type Step } from "./policies/scripted.js";
export { echo } from "./policies/echo.js";
export { rateLimited, type RateLimitOptions } from "./policies/rate-limited.js";
export { leakedText, leaksKey, presentedKey } from "./policies/leaks-key.js";
export { DEFAULT_LEADS, hireLeads, type HireLeadsOptions, type Lead } from "./policies/hire-leads.js";
export { lastUserText, toolExchanges, type ToolExchange } from "./policies/conversation.js";
export { isCompactionRequest } from "./policies/compaction.js";
export {
  companyName,
  connectorsInPrompt,
  directoryNames,
  firstReadyConnector,
  type PromptConnector,
} from "./policies/prompt-facts.js";
export { plumbingCeo, PLUMBING_CEO_LEADS } from "./policies/plumbing-ceo.js";
export { announcesStandin, STANDIN_MODEL_OWNER } from "./announce.js";
export { loadPolicyFile, parsePolicyJson, PolicyFileError } from "./policies/from-file.js";
export { isReply, replyProblem } from "./policies/validate.js";
export { countRequestTokens, countReplyBlock, countText, requestPieces, type Piece } from "./usage/tokens.js";
export { conversationKey, type InputMeasure, PrefixCache } from "./usage/prefix-cache.js";
export { fitToMaxTokens } from "./usage/output.js";
