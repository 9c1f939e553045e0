import { eventContract } from "@collab/core";
import { z } from "zod";

const id = z.number().int().positive();

/** A user as accounts announces one: the namespaces service follows the personal namespace and invitations. */
const User = () =>
  z.object({
    userId: id,
    username: z.string(),
    name: z.string(),
    email: z.string(),
    /** Whether `email` is confirmed: only a confirmed address claims invitations. */
    confirmed: z.boolean(),
  });

/** Durable events the accounts service publishes (see index.ts). */
export const AccountsEvents = {
  userCreated: eventContract("accounts.user.created", User),
  /** The username, name, e-mail address (or its confirmation) or state (blocked, active, deactivated…) changed. */
  userUpdated: eventContract("accounts.user.updated", User),
  userDeleted: eventContract("accounts.user.deleted", () => z.object({ userId: id })),
};
