import { AddMemberParams, BillableMembersParams, splitList } from "@collab/namespaces-contract";
import { toSentence } from "./creator";
import { emailList } from "@collab/namespaces-contract";

describe("members params", () => {
  test("user_id and username lists split on commas, blanks and repeats dropped", () => {
    expect(splitList(7)).toEqual(["7"]);
    expect(splitList("1, 2,,2 ,3")).toEqual(["1", "2", "3"]);
    expect(splitList(undefined)).toEqual([]);
    expect(emailList("a@x.test, B@x.test,,a@x.test")).toEqual(["a@x.test", "B@x.test"]);
    expect(emailList(["a@x.test,b@x.test", "c@x.test"])).toEqual(["a@x.test", "b@x.test", "c@x.test"]);
  });

  test("POST /members takes user_id or username, not both, not neither", () => {
    const base = { source: "groups", id: "1", access_level: 30 };
    expect(AddMemberParams.safeParse({ ...base, user_id: "1,2" }).success).toBe(true);
    expect(AddMemberParams.safeParse({ ...base, username: "a" }).success).toBe(true);
    expect(AddMemberParams.safeParse({ ...base }).error?.issues[0].message).toBe("user_id, username are missing, at least one parameter must be provided");
    expect(AddMemberParams.safeParse({ ...base, user_id: 1, username: "a" }).error?.issues[0].message).toBe("user_id, username are mutually exclusive");
  });

  test("billable members sort only by GitLab's member sort options", () => {
    expect(BillableMembersParams.safeParse({ id: "1", sort: "last_joined" }).success).toBe(true);
    expect(BillableMembersParams.safeParse({ id: "1", sort: "id_desc" }).success).toBe(false);
  });

  test("errors read as Ruby's to_sentence", () => {
    expect(toSentence(["a"])).toBe("a");
    expect(toSentence(["a", "b"])).toBe("a and b");
    expect(toSentence(["a", "b", "c"])).toBe("a, b, and c");
  });
});
