/** The `<user_ref>` every resource embeds: UserBasic in GitLab. */
export interface UserRef {
  id: number;
  username: string;
  name: string;
  state: string;
  locked: boolean;
  avatar_url: string | null;
  web_url: string;
}

export interface UserRefSource {
  id: number;
  username: string;
  name: string;
  state: string;
  avatarUrl?: string | null;
}

export const presentUserRef = (u: UserRefSource, baseUrl: string): UserRef => ({
  id: u.id,
  username: u.username,
  name: u.name,
  state: u.state,
  locked: false,
  avatar_url: u.avatarUrl ?? null,
  web_url: `${baseUrl}/${u.username}`,
});

/** Timestamps as GitLab renders them: ISO 8601 UTC with milliseconds. */
export const iso = (d: Date | string | null | undefined): string | null =>
  d === null || d === undefined ? null : (d instanceof Date ? d : new Date(d)).toISOString();

/** Dates (no time) as YYYY-MM-DD. */
export const isoDate = (d: Date | string | null | undefined): string | null => {
  if (d === null || d === undefined) return null;
  if (typeof d === "string" && /^\d{4}-\d{2}-\d{2}$/.test(d)) return d;
  return (d instanceof Date ? d : new Date(d)).toISOString().slice(0, 10);
};
