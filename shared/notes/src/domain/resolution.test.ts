import { errorBodyOf } from "@collab/core";
import { assertNoteResolvable, assertThreadResolvable, isResolvableNote, isThreadResolved, mayResolve, notesToChange } from "./resolution";

const errorOf = (f: () => void) => {
  try {
    f();
  } catch (e) {
    return errorBodyOf(e);
  }
  return undefined;
};

describe("isResolvableNote", () => {
  test("thread notes by users on a resolvable kind", () => {
    expect(isResolvableNote(true, { type: "DiscussionNote", system: false })).toBe(true);
    expect(isResolvableNote(true, { type: "DiffNote", system: false })).toBe(true);
  });
  test("never standalone comments, system notes, or notes of a kind without resolvable threads", () => {
    expect(isResolvableNote(true, { type: null, system: false })).toBe(false);
    expect(isResolvableNote(true, { type: "DiscussionNote", system: true })).toBe(false);
    expect(isResolvableNote(false, { type: "DiscussionNote", system: false })).toBe(false);
  });
});

describe("isThreadResolved", () => {
  const n = (resolvable: boolean, resolved: boolean) => ({ resolvable, resolvedAt: resolved ? new Date() : null });
  test("resolved when every resolvable note is, and there is one", () => {
    expect(isThreadResolved([n(true, true), n(false, false)])).toBe(true);
    expect(isThreadResolved([n(true, true), n(true, false)])).toBe(false);
    expect(isThreadResolved([n(false, false)])).toBe(false);
  });
});

describe("mayResolve", () => {
  const base = { noteableAuthorId: 1, noteAuthorId: 2 };
  test("Developers and above", () => {
    expect(mayResolve({ ...base, role: 30, callerId: 9 })).toBe(true);
    expect(mayResolve({ ...base, role: 20, callerId: 9 })).toBe(false);
  });
  test("the noteable's author, whatever the role", () => {
    expect(mayResolve({ ...base, role: 0, callerId: 1 })).toBe(true);
  });
  test("the note's author for that note only", () => {
    expect(mayResolve({ ...base, role: 10, callerId: 2 })).toBe(true);
    expect(mayResolve({ noteableAuthorId: 1, role: 10, callerId: 2 })).toBe(false);
  });
  test("never an anonymous caller", () => {
    expect(mayResolve({ ...base, role: 60, callerId: null })).toBe(false);
  });
});

describe("assertNoteResolvable", () => {
  const notResolvable = { status: 400, body: { message: "400 Bad request - Note is not resolvable" } };
  test("a kind without resolvable threads answers 400 to everybody", () => {
    expect(errorOf(() => assertNoteResolvable(false, true, { resolvable: false }))).toEqual(notResolvable);
    expect(errorOf(() => assertNoteResolvable(false, false, { resolvable: false }))).toEqual(notResolvable);
  });
  test("otherwise 403 for who may not resolve, before 400 for a note that is not resolvable", () => {
    expect(errorOf(() => assertNoteResolvable(true, false, { resolvable: false }))?.status).toBe(403);
    expect(errorOf(() => assertNoteResolvable(true, true, { resolvable: false }))).toEqual(notResolvable);
    expect(errorOf(() => assertNoteResolvable(true, true, { resolvable: true }))).toBeUndefined();
  });
});

describe("assertThreadResolvable", () => {
  test("403 for who may not resolve, or a thread with nothing to resolve", () => {
    expect(errorOf(() => assertThreadResolvable(false, [{ resolvable: true }]))?.status).toBe(403);
    expect(errorOf(() => assertThreadResolvable(true, [{ resolvable: false }]))?.status).toBe(403);
    expect(errorOf(() => assertThreadResolvable(true, [{ resolvable: false }, { resolvable: true }]))).toBeUndefined();
  });
});

describe("notesToChange", () => {
  const notes = [
    { id: 1, resolvable: true, resolvedAt: null },
    { id: 2, resolvable: true, resolvedAt: new Date() },
    { id: 3, resolvable: false, resolvedAt: null },
  ];
  test("resolving touches the unresolved resolvable notes; one resolved earlier keeps its resolver", () => {
    expect(notesToChange(notes, true).map((n) => n.id)).toEqual([1]);
  });
  test("unresolving touches the resolved ones", () => {
    expect(notesToChange(notes, false).map((n) => n.id)).toEqual([2]);
  });
});
