// Reads a request body, undoing its content-encoding (gzip, deflate, br; zstd where this Node has
// it: Node 20 does not), so the log and the policy always see the JSON the client meant.
import type { IncomingMessage } from "node:http";
import * as zlib from "node:zlib";

export class BodyError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "BodyError";
  }
}

/** 32 MiB, the Anthropic API's request size limit. */
const MAX_BODY = 32 * 1024 * 1024;

function decode(raw: Buffer, encoding: string): Buffer {
  switch (encoding) {
    case "":
    case "identity":
      return raw;
    case "gzip":
      return zlib.gunzipSync(raw);
    case "deflate":
      return zlib.inflateSync(raw);
    case "br":
      return zlib.brotliDecompressSync(raw);
    case "zstd": {
      const zstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
      if (zstd) return zstd(raw);
      throw new BodyError(
        `stand-in: content-encoding zstd needs Node >= 22.15 (this is ${process.version})`,
        415,
      );
    }
    default:
      throw new BodyError(`stand-in: unsupported content-encoding "${encoding}" (gzip, deflate, br)`, 415);
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BodyError("stand-in: request body over 32 MiB", 413);
    chunks.push(chunk as Buffer);
  }
  const encoding = String(req.headers["content-encoding"] ?? "")
    .trim()
    .toLowerCase();
  try {
    return decode(Buffer.concat(chunks), encoding).toString("utf8");
  } catch (error) {
    if (error instanceof BodyError) throw error;
    throw new BodyError(`stand-in: body is not valid ${encoding}: ${(error as Error).message}`, 400);
  }
}
