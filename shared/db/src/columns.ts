import { customType } from "drizzle-orm/pg-core";

/**
 * Bytes in a `bytea` column. node-postgres reads bytea as a Buffer, PGlite as a Uint8Array; both
 * become a Buffer here. Keep such columns out of list queries: select them only where the bytes
 * are needed (a download, a worker).
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array | string }>({
  dataType: () => "bytea",
  toDriver: (value) => value,
  fromDriver: (value) => {
    if (typeof value === "string") return Buffer.from(value.startsWith("\\x") ? value.slice(2) : value, "hex");
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  },
});
