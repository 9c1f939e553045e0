import { AccessLevel } from "@collab/core";
import { groupEventVisible, type GroupAccess } from "./group-events";

const access = (over: Partial<GroupAccess> = {}): GroupAccess => ({ admin: false, readable: new Set([5]), levels: new Map(), ...over });
const event = (over: { groupId?: number | null; confidential?: boolean; internal?: boolean } = {}) => ({ groupId: 5, confidential: false, internal: false, ...over });

it("shows a group's event to who may see the group, a project's event always (its project was checked in SQL)", () => {
  expect(groupEventVisible(event(), access())).toBe(true);
  expect(groupEventVisible(event({ groupId: 6 }), access())).toBe(false);
  expect(groupEventVisible(event({ groupId: null }), access({ readable: new Set() }))).toBe(true);
  expect(groupEventVisible(event({ groupId: 6, confidential: true, internal: true }), access({ admin: true, readable: new Set() }))).toBe(true);
});

it("shows a confidential epic's events to Planners and up, internal notes to Reporters and up", () => {
  const at = (level: number) => access({ levels: new Map([[5, level]]) });
  expect(groupEventVisible(event({ confidential: true }), access())).toBe(false);
  expect(groupEventVisible(event({ confidential: true }), at(AccessLevel.GUEST))).toBe(false);
  expect(groupEventVisible(event({ confidential: true }), at(AccessLevel.PLANNER))).toBe(true);
  expect(groupEventVisible(event({ internal: true }), at(AccessLevel.PLANNER))).toBe(false);
  expect(groupEventVisible(event({ internal: true }), at(AccessLevel.REPORTER))).toBe(true);
  expect(groupEventVisible(event({ confidential: true }), access({ readable: new Set(), levels: new Map([[5, AccessLevel.OWNER]]) }))).toBe(false);
});
