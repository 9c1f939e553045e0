/** Markdown task list items in a description: "- [ ] todo", "* [x] done", "1. [ ] step". */
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+\[([ xX~])\]\s/gm;

export function taskCompletion(description: string | null): { count: number; completed_count: number } {
  if (!description) return { count: 0, completed_count: 0 };
  let count = 0;
  let completed = 0;
  for (const m of description.matchAll(ITEM)) {
    if (m[1] === "~") continue; // inapplicable items do not count
    count++;
    if (m[1] !== " ") completed++;
  }
  return { count, completed_count: completed };
}

export const taskStatus = (t: { count: number; completed_count: number }) =>
  `${t.completed_count} of ${t.count} checklist ${t.count === 1 ? "item" : "items"} completed`;
