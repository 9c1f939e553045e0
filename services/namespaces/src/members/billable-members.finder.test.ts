import { billableOf, pageOf, sortBillable, type HierarchyMember } from "./billable-members.finder";
import type { MemberDetails } from "./seats";

const user = (id: number, name: string, extra: Partial<MemberDetails> = {}): MemberDetails => ({
  id,
  username: name.toLowerCase(),
  name,
  state: "active",
  human: true,
  email: `${name}@x.test`,
  public_email: null,
  confirmed: true,
  last_activity_on: null,
  created_at: "2024-01-01T00:00:00.000Z",
  ...extra,
});
const member = (userId: number, level: number, joined: string, groupMember = true): HierarchyMember => ({ userId, level, joinedAt: new Date(joined), groupMember });

describe("billable members", () => {
  const members = [member(1, 50, "2024-01-01"), member(2, 10, "2024-01-02"), member(3, 30, "2024-01-03", false), member(4, 15, "2024-01-04"), member(5, 30, "2024-01-05"), member(6, 40, "2024-01-06")];
  const details = [
    user(1, "Root"),
    user(2, "Guest"),
    user(3, "bob", { last_activity_on: "2024-03-01" }),
    user(4, "Alice", { last_activity_on: "2024-02-01" }),
    user(5, "Bot", { human: false }),
    user(6, "Blocked", { state: "blocked" }),
  ];

  test("are the active people with a billable role on the tier", () => {
    expect(billableOf("ultimate", members, details).map((m) => m.userId)).toEqual([1, 3, 4]);
    expect(billableOf("premium", members, details).map((m) => m.userId)).toEqual([1, 2, 3, 4]);
    expect(billableOf("free", members, details)).toEqual([]);
  });

  test("sort by every option, ties and unknowns by id", () => {
    const list = billableOf("premium", members, details);
    const ids = (sort?: Parameters<typeof sortBillable>[1]) => sortBillable(list, sort).map((m) => m.userId);
    expect(ids()).toEqual([1, 2, 3, 4]);
    expect(ids("name_asc")).toEqual([4, 3, 2, 1]);
    expect(ids("name_desc")).toEqual([1, 2, 3, 4]);
    expect(ids("access_level_asc")).toEqual([2, 4, 3, 1]);
    expect(ids("access_level_desc")).toEqual([1, 3, 4, 2]);
    expect(ids("oldest_joined")).toEqual([1, 2, 3, 4]);
    expect(ids("last_joined")).toEqual([4, 3, 2, 1]);
    expect(ids("last_activity_on_desc")).toEqual([3, 4, 1, 2]);
    expect(ids("last_activity_on_asc")).toEqual([4, 3, 1, 2]);
    expect(ids("recent_sign_in")).toEqual([1, 2, 3, 4]);
    expect(pageOf(ids("name_asc"), { page: 2, per_page: 3 })).toEqual([1]);
  });
});
