import { customType } from "drizzle-orm/pg-core";

/**
 * Bytes in a `bytea` column: node-postgres reads them as a Buffer (its hex text form, should a
 * raw select bypass the type parser, is decoded too). Keep such columns out of list queries:
 * select them only where the bytes are needed (a download, a worker).
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | string }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => {
    if (typeof value === "string") return Buffer.from(value.startsWith("\\x") ? value.slice(2) : value, "hex");
    return value;
  },
});
