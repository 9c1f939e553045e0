import type { EpicWithLabels } from "./epics.finder";
import { presentEpic, type EpicPresentation } from "./epic.entity";

const at = new Date("2026-01-02T03:04:05.000Z");
const epic = (over: Partial<EpicWithLabels> = {}): EpicWithLabels => ({
  id: 7,
  groupId: 3,
  iid: 2,
  parentId: null,
  title: "Roadmap",
  description: null,
  state: "opened",
  authorId: 1,
  closedById: null,
  closedAt: null,
  confidential: false,
  color: "#1068bf",
  startDateFixed: "2026-01-01",
  startDateIsFixed: false,
  dueDateFixed: "2026-02-01",
  dueDateIsFixed: true,
  relativePosition: null,
  upvotes: 0,
  downvotes: 0,
  userNotesCount: 0,
  updatedById: null,
  createdAt: at,
  updatedAt: at,
  labelIds: [],
  ...over,
});

const presentation = (over: Partial<EpicPresentation> = {}): EpicPresentation => ({
  baseUrl: "http://collab.test",
  groupPaths: new Map([
    [3, "platform"],
    [4, "platform/billing"],
  ]),
  contextGroupId: 3,
  users: new Map(),
  labels: new Map(),
  parents: new Map(),
  withLabelsDetails: false,
  ...over,
});

describe("presentEpic", () => {
  test("a date counts only when fixed; the fixed value is shown either way", () => {
    expect(presentEpic(epic(), presentation())).toMatchObject({
      start_date: null,
      start_date_fixed: "2026-01-01",
      start_date_is_fixed: false,
      due_date: "2026-02-01",
      end_date: "2026-02-01",
      due_date_is_fixed: true,
    });
  });

  test("references are relative to the group the request names", () => {
    expect(presentEpic(epic(), presentation()).references).toEqual({ short: "&2", relative: "&2", full: "platform&2" });
    expect(presentEpic(epic({ groupId: 4 }), presentation()).references).toEqual({ short: "&2", relative: "platform/billing&2", full: "platform/billing&2" });
  });

  test("the parent shows as its iid and API link; subscribed only when asked", () => {
    const parent = epic({ id: 5, iid: 1, groupId: 4 });
    const shown = presentEpic(epic({ parentId: 5 }), presentation({ parents: new Map([[5, parent]]) }));
    expect(shown).toMatchObject({ parent_id: 5, parent_iid: 1, _links: { parent: "http://collab.test/api/v4/groups/4/epics/1" } });
    expect(shown).not.toHaveProperty("subscribed");
    expect(presentEpic(epic(), presentation({ subscribed: false })).subscribed).toBe(false);
  });

  test("a light colour gets dark text", () => {
    expect(presentEpic(epic({ color: "#FFFF00" }), presentation()).text_color).toBe("#1F1E24");
  });
});
