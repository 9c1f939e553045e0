/**
 * GitLab's draft marker (MergeRequest::DRAFT_REGEX over Gitlab::Regex.merge_request_draft): a
 * title starting with `Draft:`, `[Draft]` or `(Draft)`, in any case, makes the merge request a draft.
 */
const DRAFT_PREFIX = /^\s*(\[draft\]|\(draft\)|draft:)+\s*/i;

export const isDraftTitle = (title: string) => DRAFT_PREFIX.test(title);

/** The title without its draft prefix (GitLab's draftless_title). */
export const draftlessTitle = (title: string) => title.replace(DRAFT_PREFIX, "");

/** The title marked as draft (GitLab's draft_title): "Draft: " before the draftless title. */
export const draftTitle = (title: string) => `Draft: ${draftlessTitle(title)}`;
