// How a tool's refusal names what was wrong. An input field is named as the model wrote it
// (`model` "sonnet" is an alias…); a refusal that comes from the company's state — the CEO's mode,
// who is calling — is not about a field of the call, so it reads as a sentence of its own
// ("A strategy cannot be filed in the team-building phase…"), never as "`mode` a strategy…".
const STATE_FIELDS = new Set(["mode", "agent"]);

export function refusalSentence(field: string, why: string): string {
  return STATE_FIELDS.has(field) ? why.charAt(0).toUpperCase() + why.slice(1) : `\`${field}\` ${why}`;
}
