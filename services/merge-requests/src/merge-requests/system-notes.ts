/** GitLab's wording for the merge request changes it records as system notes (SystemNoteService). */
export const SystemNote = {
  title: (from: string, to: string) => `changed title from **${from}** to **${to}**`,
  description: () => "changed the description",
  draft: (on: boolean) => (on ? "marked this merge request as **draft**" : "marked this merge request as **ready**"),
  assignees: (added: string[], removed: string[]) => {
    const parts: string[] = [];
    if (added.length) parts.push(`assigned to ${added.map((u) => `@${u}`).join(" and ")}`);
    if (removed.length) parts.push(`unassigned ${removed.map((u) => `@${u}`).join(" and ")}`);
    return parts.join(" and ");
  },
  reviewers: (added: string[], removed: string[]) => {
    const parts: string[] = [];
    if (added.length) parts.push(`requested review from ${added.map((u) => `@${u}`).join(" and ")}`);
    if (removed.length) parts.push(`removed review request for ${removed.map((u) => `@${u}`).join(" and ")}`);
    return parts.join(" and ");
  },
  locked: (on: boolean) => (on ? "locked the discussion in this merge request" : "unlocked the discussion in this merge request"),
  targetBranch: (from: string, to: string) => `changed target branch from \`${from}\` to \`${to}\``,
};
