// HTTP errors, mapped in ONE place (errorResponse). Every layer below throws the error classes of
// @cadre/core, split by who is at fault; the server edge adds only what HTTP itself knows about
// (credentials, permissions, media types, body size). Anything else is our bug: a 500 that names
// nothing internal.
import { ConflictStateError, NotFoundError, UserInputError, errorMessage } from "@cadre/core";
import type { Static } from "@cadre/model";
import { ConflictError } from "@cadre/store";
import { Type } from "typebox";

export const ERROR_CODES = [
  "invalid_input",
  "malformed_json",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "gone",
  "payload_too_large",
  "unsupported_media_type",
  "internal",
] as const;

/** Every error the API answers, whatever the layer: what went wrong, and each bad field with why. */
export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: ERROR_CODES.join(", ") }),
      message: Type.String({ description: "What was wrong and what is allowed." }),
      fields: Type.Optional(
        Type.Record(Type.String(), Type.String(), { description: "Each bad field and why." }),
      ),
    }),
  },
  { additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

/** A refusal that only exists at the HTTP edge. */
export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export const unauthorized = (message: string) => new HttpError(401, "unauthorized", message);
export const forbidden = (message: string) => new HttpError(403, "forbidden", message);

export interface MappedError {
  status: number;
  body: ErrorBody;
}

export function errorResponse(error: unknown, onInternal: (error: unknown) => void = () => {}): MappedError {
  const body = (
    status: number,
    code: string,
    message: string,
    fields?: Record<string, string>,
  ): MappedError => ({
    status,
    body: {
      error: {
        code,
        message,
        ...(fields && Object.keys(fields).length > 0 ? { fields: { ...fields } } : {}),
      },
    },
  });
  if (error instanceof HttpError) return body(error.status, error.code, error.message, error.fields);
  // Subclasses before their parent: NotFound and ConflictState are UserInputErrors too.
  if (error instanceof NotFoundError) return body(404, "not_found", error.message);
  if (error instanceof ConflictStateError) return body(409, "conflict", error.message);
  if (error instanceof UserInputError) return body(400, "invalid_input", error.message, error.fields);
  // A unique constraint hit by a request (e.g. the same connector id twice at once).
  if (error instanceof ConflictError) return body(409, "conflict", errorMessage(error));
  onInternal(error);
  return body(500, "internal", "the server failed on this request; it has been logged");
}
