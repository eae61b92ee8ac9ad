// MC-12 in the Pi session: the request byte budget. The Pi session builds each request in process,
// so it measures the bytes it is about to send (system prompt, tools, the window's messages, as
// serialised JSON) and knows every inline image in them. Oversized inline images are the only
// strippable part; tool outputs have no tier of their own. Stripping replaces an image with a short
// text placeholder in the transcript — no model call.

import type { AgentMessage } from "@mariozechner/pi-agent-core";
import type { ImageContent, TextContent } from "@mariozechner/pi-ai";
import type { StrippableImage } from "../../context/index.js";
import { utf8Length } from "../../context/utf8-bytes.js";

export interface PiByteBudget {
  /** Bytes one request may carry: system prompt, tools and the window's messages, serialised. */
  requestBytes: number;
  /** An inline image whose encoded data is at least this large is "oversized", hence strippable. */
  oversizedImageBytes: number;
}

/** 32 MB is the smallest request cap among the vendors Pi routes to (Anthropic's Messages API). */
export const DEFAULT_PI_BYTE_BUDGET: Readonly<PiByteBudget> = Object.freeze({
  requestBytes: 32_000_000,
  oversizedImageBytes: 256 * 1024,
});

type Block = TextContent | ImageContent;
type WithBlocks = AgentMessage & { content: Block[] };

interface Measure {
  bytes: number;
  /** Content indexes and sizes of the message's oversized inline images. */
  images: Array<{ index: number; bytes: number; mimeType: string }>;
}

/** An oversized inline image of the window, addressable for a strip. */
export interface InlineImage extends StrippableImage {
  message: AgentMessage;
  index: number;
  mimeType: string;
}

export interface RequestMeasure {
  bytes: number;
  images: InlineImage[];
}

function blocksOf(message: AgentMessage): Block[] | undefined {
  const m = message as { role?: unknown; content?: unknown };
  if ((m.role === "user" || m.role === "toolResult") && Array.isArray(m.content)) return m.content as Block[];
  return undefined;
}

export class RequestBytes {
  // Messages are measured once: a long session re-sends the same objects call after call.
  readonly #measured = new WeakMap<object, Measure>();
  readonly #budget: PiByteBudget;

  constructor(budget: PiByteBudget) {
    this.#budget = budget;
  }

  get limit(): number {
    return this.#budget.requestBytes;
  }

  /** The bytes of a request made of `fixedBytes` (system prompt and tools) and `view`, with its oversized images. */
  measure(fixedBytes: number, view: readonly AgentMessage[]): RequestMeasure {
    let bytes = fixedBytes;
    const images: InlineImage[] = [];
    view.forEach((message, at) => {
      const m = this.#measure(message);
      bytes += m.bytes;
      for (const image of m.images)
        images.push({
          id: `${at}:${image.index}`,
          bytes: image.bytes,
          message,
          index: image.index,
          mimeType: image.mimeType,
        });
    });
    return { bytes, images };
  }

  /**
   * Replaces the images with a placeholder, in place: the message objects are shared by Pi's loop
   * and its stored transcript, so both see the strip, and the next request is smaller.
   */
  strip(images: readonly InlineImage[]): void {
    for (const image of images) {
      const blocks = blocksOf(image.message);
      const block = blocks?.[image.index];
      if (!blocks || block?.type !== "image") continue;
      const placeholder: TextContent = {
        type: "text",
        text: `[image removed: ${image.mimeType}, ${image.bytes} bytes of inline data over the request byte budget]`, // MC-12
      };
      // A new array, so events that already carried the old content keep what they reported.
      (image.message as WithBlocks).content = blocks.map((b, i) => (i === image.index ? placeholder : b));
      this.#measured.delete(image.message);
    }
  }

  #measure(message: AgentMessage): Measure {
    const known = this.#measured.get(message);
    if (known) return known;
    const images: Measure["images"] = [];
    (blocksOf(message) ?? []).forEach((block, index) => {
      if (block.type !== "image") return;
      const size = utf8Length(block.data);
      if (size >= this.#budget.oversizedImageBytes)
        images.push({ index, bytes: size, mimeType: block.mimeType });
    });
    const measure = { bytes: utf8Length(JSON.stringify(message)), images };
    this.#measured.set(message, measure);
    return measure;
  }
}
