/**
 * Discord webhook messages (https://discord.com/developers/docs/resources/webhook#execute-webhook):
 * a one-line `content` and one embed with the title, link, author and GitLab's orange.
 */
export interface DiscordMessage {
  content: string;
  embeds: { title: string; url: string; description: string; color: number; author: { name: string }; timestamp: string }[];
}

const GITLAB_ORANGE = 0xfc6d26;

export function discordMessage(m: { project: string; summary: string; title: string; url: string; description?: string; author: string; at: string }): DiscordMessage {
  return {
    content: `[${m.project}] ${m.summary}`,
    embeds: [{ title: m.title.slice(0, 256), url: m.url, description: (m.description ?? "").slice(0, 2000), color: GITLAB_ORANGE, author: { name: m.author }, timestamp: m.at }],
  };
}
