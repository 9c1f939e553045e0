import type { UserRef } from "@collab/core";
import { PgDialect, pgSchema } from "drizzle-orm/pg-core";
import { notesTables, type AwardEmojiRow } from "../db/tables";
import { presentAward } from "./award-emoji.entity";
import { reactionCondition } from "./award-emoji.finder";

const { awardEmoji } = notesTables(pgSchema("things"));
const dialect = new PgDialect();
const render = (userId: number | undefined, value: string | undefined, negated = false) => {
  const condition = reactionCondition(awardEmoji, "Issue", awardEmoji.id, userId, value, negated);
  return condition && dialect.sqlToQuery(condition);
};

describe("presentAward", () => {
  const at = new Date("2024-05-01T10:00:00Z");
  const row: AwardEmojiRow = { id: 5, name: "tada", userId: 7, awardableType: "Note", awardableId: 9, projectId: 3, createdAt: at, updatedAt: at };
  const alice = { id: 7, username: "alice" } as UserRef;

  test("GitLab's AwardEmoji entity, without the internal project id", () => {
    expect(presentAward(row, new Map([[7, alice]]))).toEqual({
      id: 5,
      name: "tada",
      user: alice,
      created_at: "2024-05-01T10:00:00.000Z",
      updated_at: "2024-05-01T10:00:00.000Z",
      awardable_id: 9,
      awardable_type: "Note",
      url: null,
    });
  });

  test("an unknown user is null", () => {
    expect(presentAward(row, new Map()).user).toBeNull();
  });
});

describe("reactionCondition", () => {
  test("no filter, or no caller: no condition (GitLab ignores it for anonymous callers)", () => {
    expect(render(7, undefined)).toBeUndefined();
    expect(render(undefined, "thumbsup")).toBeUndefined();
  });

  test("Any and None: some award of the caller, or none", () => {
    const any = render(7, "Any")!;
    expect(any.sql).toMatch(/^EXISTS \(SELECT 1 FROM "things"\."award_emoji" ae WHERE ae\.awardable_type = \$1 AND ae\.awardable_id = .* AND ae\.user_id = \$2\)$/);
    expect(any.params).toEqual(["Issue", 7]);
    expect(render(7, "None")!.sql).toMatch(/^NOT EXISTS/);
  });

  test("a name, aliases read as their main name", () => {
    expect(render(7, "+1")!.params).toEqual(["Issue", 7, "thumbsup"]);
    expect(render(7, "+1")!.sql).toMatch(/AND ae\.name = \$3\)$/);
  });

  test("negated: not that emoji; not[None] is some award, not[Any] none", () => {
    expect(render(7, "tada", true)!.sql).toMatch(/^NOT EXISTS/);
    expect(render(7, "None", true)!.sql).toMatch(/^EXISTS/);
    expect(render(7, "Any", true)!.sql).toMatch(/^NOT EXISTS/);
  });
});
