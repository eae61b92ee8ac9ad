import { describe, expect, it } from "vitest";
import { renderMarkdown } from "./markdown.js";

describe("renderMarkdown", () => {
  it("renders a strategy's headings, lists and emphasis", () => {
    const html = renderMarkdown("# Plan\n\n## Team\n- **CTO**: builds\n- CRO: sells\n\n1. first\n2. second");
    expect(html).toContain("<h1>Plan</h1>");
    expect(html).toContain("<h2>Team</h2>");
    expect(html).toContain("<li><strong>CTO</strong>: builds</li>");
    expect(html).toContain("<ol>");
  });

  it("escapes raw HTML: no script, no event handler, no iframe reaches the page", () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n<iframe src="https://evil.example"></iframe>',
    );
    expect(html).not.toMatch(/<script|<img|<iframe/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
  });

  it("leaves javascript:, data: and vbscript: links as text and opens the others with rel=noopener", () => {
    const html = renderMarkdown(
      "[a](javascript:alert(1)) [b](JaVaScRiPt:alert(1)) [c](data:text/html,<script>x</script>) [d](vbscript:x) [ok](https://example.com)",
    );
    expect(html).not.toMatch(/href="(javascript|data|vbscript):/i);
    expect((html.match(/<a /g) ?? []).length).toBe(1);
    expect(html).toContain(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer nofollow">ok</a>',
    );
  });

  it("loads no image", () => {
    expect(renderMarkdown("![pixel](https://tracker.example/p.gif)")).not.toContain("<img");
  });
});
