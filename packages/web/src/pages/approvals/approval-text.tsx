// An approval's filed text, rendered as markdown (sanitised: ui/markdown.ts), in full — pending or
// decided, the operator reads the whole strategy, never a clipped box.
import { renderMarkdown } from "../../ui/markdown.js";

export function ApprovalText({ text }: { text: string }) {
  // renderMarkdown escapes every tag of the input: only markdown's own elements reach the page.
  return (
    <div
      class="payload markdown"
      data-testid="approval-text"
      dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }}
    />
  );
}
