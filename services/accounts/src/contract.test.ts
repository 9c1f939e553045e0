import { Accounts, AccountsActions } from "@collab/accounts-contract";
import { UserLimitsAction, type ActionContract } from "@collab/core";
import { accountsService } from "./accounts.service";

/** Every action entry of a contract object, however nested. */
function entriesOf(node: object): ActionContract[] {
  return Object.values(node).flatMap((v) => (v && typeof v === "object" ? ((v as { kind?: string }).kind === "action" ? [v as ActionContract] : entriesOf(v)) : []));
}

const actions = accountsService.actions as Record<string, { contract?: ActionContract; visibility?: string }>;

describe("the accounts contract", () => {
  test("every entry is implemented by the service, through that very entry", () => {
    const own = entriesOf(AccountsActions);
    expect(own.length).toBeGreaterThan(20);
    for (const entry of own) expect([entry.name, actions[entry.name.replace(/^accounts\./, "")]?.contract === entry]).toEqual([entry.name, true]);
    // health and replayEvent: defineService's, from serviceContract("accounts").
    for (const entry of entriesOf(Accounts)) expect(actions[entry.name.replace(/^accounts\./, "")]?.contract?.name).toBe(entry.name);
  });

  test("every bus-only action (public visibility) is an entry of the contract", () => {
    const names = new Set(entriesOf(Accounts).map((e) => e.name));
    const busOnly = Object.entries(actions).filter(([, a]) => a.visibility === "public").map(([key]) => `accounts.${key}`);
    expect(busOnly.filter((name) => !names.has(name))).toEqual([]);
  });

  test("users.limits is the entry @collab/core declares and asks", () => {
    expect(Accounts.users.limits).toBe(UserLimitsAction);
  });
});
