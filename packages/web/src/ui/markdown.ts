// Markdown as an operator reads a strategy: headings, lists, emphasis, code, tables and links —
// and nothing that runs. markdown-it with raw HTML off escapes every tag in the text (a <script>
// shows as text); its link check refuses javascript:, vbscript:, file: and data: targets, which
// then stay plain text; images are off (a filed text loads nothing from elsewhere); every link that
// remains opens in a new tab with rel="noopener noreferrer nofollow", so the page it opens gets no
// handle on the dashboard and no referrer.
import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: false, typographer: false, breaks: false });
md.disable(["image"]);

const defaultLinkOpen =
  md.renderer.rules.link_open ??
  ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const token = tokens[idx]!;
  token.attrSet("target", "_blank");
  token.attrSet("rel", "noopener noreferrer nofollow");
  return defaultLinkOpen(tokens, idx, options, env, self);
};

/** The text as safe HTML: every tag of the input escaped, only markdown's own elements produced. */
export function renderMarkdown(text: string): string {
  return md.render(text);
}
