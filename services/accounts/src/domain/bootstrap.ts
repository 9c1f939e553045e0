import type { Db } from "@collab/db";
import { count, sql } from "drizzle-orm";
import { users } from "../db/schema";
import { createToken, generateToken } from "./tokens";
import { hashPassword } from "./passwords";
import { randomBytes } from "node:crypto";

export const ALL_SCOPES_FOR_ROOT = ["api", "read_api", "read_user", "read_repository", "write_repository", "sudo", "admin_mode", "create_runner", "manage_runner"];

/**
 * First start: creates administrator `root` (id 1) with a personal access token — the operator's
 * INITIAL_ROOT_TOKEN, or a generated one that is returned so the caller can print it once.
 * Does nothing when any user exists.
 */
export async function bootstrapRoot(db: Db, initialToken?: string): Promise<{ created: boolean; token?: string }> {
  return db.transaction(async (tx) => {
    // Replicas starting together on an empty database: one creates root, the others wait and see it.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('accounts:bootstrap-root'))`);
    const [{ n }] = await tx.select({ n: count() }).from(users);
    if (n > 0) return { created: false };
    const [root] = await tx
      .insert(users)
      .values({
        username: "root",
        email: "admin@example.com",
        name: "Administrator",
        admin: true,
        passwordDigest: await hashPassword(randomBytes(24).toString("base64url")),
        confirmedAt: new Date(),
      })
      .returning();
    const token = initialToken ?? generateToken();
    await createToken(tx as unknown as Db, { userId: root.id, name: "initial root token", scopes: ALL_SCOPES_FOR_ROOT, expiresAt: null, value: token });
    return { created: true, token };
  });
}
