// How streamed content is split into deltas: text in runs of a few words, tool-call JSON in three
// parts. Deterministic, so a test can predict the deltas; several per block, so clients must join them.

export function textChunks(text: string): string[] {
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  const chunks: string[] = [];
  for (let i = 0; i < words.length; i += 3) chunks.push(words.slice(i, i + 3).join(""));
  return chunks.length > 0 ? chunks : [""];
}

export function jsonChunks(json: string): string[] {
  if (json.length < 3) return [json];
  const third = Math.ceil(json.length / 3);
  return [json.slice(0, third), json.slice(third, 2 * third), json.slice(2 * third)];
}
