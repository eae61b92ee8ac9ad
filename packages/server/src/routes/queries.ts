// Query-string parsing shared by the list routes: strict, so a typo is a 400, not a silent default.
import { UserInputError } from "@cadre/core";
import { isOneOf } from "@cadre/model";

export function enumQuery<const T extends readonly string[]>(
  name: string,
  value: string | undefined,
  allowed: T,
): T[number] | undefined {
  if (value === undefined) return undefined;
  if (!isOneOf(allowed, value))
    throw new UserInputError(`query parameter ${name} must be one of: ${allowed.join(", ")}`, {
      [name]: `one of ${allowed.join(", ")}`,
    });
  return value;
}

export function idQuery(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value))
    throw new UserInputError(`${name} must be a non-negative whole number (an event id)`, {
      [name]: "a non-negative whole number",
    });
  return Number(value);
}

export function limitQuery(value: string | undefined, max: number): number {
  if (value === undefined) return max;
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new UserInputError(`limit must be a whole number from 1 to ${max}`, { limit: `1..${max}` });
  return Number(value);
}
