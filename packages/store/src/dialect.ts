// The few things SQLite and PostgreSQL do differently. Queries and migrations are written once
// against Kysely's builder; each dialect supplies one of these adapters for the rest.
import type { ColumnDefinitionBuilder, ColumnDataType, SqlBool } from "kysely";

/** Which kind of constraint a driver error reports; undefined for any other failure. */
export type ConstraintViolation = "unique" | "foreign-key" | undefined;

export interface DialectAdapter {
  readonly name: "sqlite" | "postgres";
  /** Column type for JSON values. */
  readonly jsonType: ColumnDataType;
  /** Makes an integer primary-key column generate increasing ids. */
  autoIncrement(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  encodeJson(value: unknown): string;
  decodeJson(stored: unknown): unknown;
  encodeBool(value: boolean): SqlBool;
  decodeBool(stored: SqlBool): boolean;
  /** Classifies a driver error, so that constraint violations map to store errors in one place. */
  constraintViolation(error: unknown): ConstraintViolation;
}
