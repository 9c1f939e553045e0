import { chatBody, chatRequest, type ChatFacts } from "./chat-message";

const facts: ChatFacts = {
  kind: "push_events",
  project: "team/app",
  projectUrl: "http://h/team/app",
  summary: "Ann pushed to branch <main> & co",
  title: "Fix [totals]",
  url: "http://h/team/app/-/commits/main",
  author: "Ann",
  at: "t",
  thread: "push abc",
};
const secrets = (values: Record<string, string>) => (name: string) => values[name] ?? "";

describe("chat formats", () => {
  test("Slack: mrkdwn escaped; the event's channel over the default one, the first of a list; no channel or username when unset", () => {
    expect(chatBody("slack", facts, { channel: "#dev", push_channel: " #a, #b", username: "bot" })).toMatchObject({ text: "[<http://h/team/app|team/app>] Ann pushed to branch &lt;main&gt; &amp; co", channel: "#a", username: "bot" });
    expect(chatBody("mattermost", facts, { channel: "#dev", push_channel: "" })).toMatchObject({ channel: "#dev" });
    const bare = chatBody("slack", facts, { username: " " });
    expect(bare).not.toHaveProperty("channel");
    expect(bare).not.toHaveProperty("username");
  });

  test("markdown links escape brackets; Matrix's HTML escapes text", () => {
    expect(chatBody("webex-teams", facts, {}).markdown).toContain("[Fix \\[totals\\]](http://h/team/app/-/commits/main)");
    expect(chatBody("matrix", facts, {}).formatted_body).toContain("branch &lt;main&gt; &amp; co<br>");
  });

  test("Telegram: the room, a numeric thread only", () => {
    expect(chatBody("telegram", facts, { room: "@team", thread: "7" })).toMatchObject({ chat_id: "@team", parse_mode: "markdown", message_thread_id: 7 });
    expect(chatBody("telegram", facts, { room: "@team", thread: "x" })).not.toHaveProperty("message_thread_id");
  });

  test("requests: Telegram's and Matrix's hosts (theirs by default), Google Chat's thread option, the webhook otherwise", () => {
    expect(chatRequest("telegram", {}, secrets({ token: "1:t" }), {}, 5)).toEqual({ method: "POST", url: "https://api.telegram.org/bot1:t/sendMessage" });
    expect(chatRequest("matrix", { hostname: "http://m/", room: "!r:x" }, secrets({ token: "k" }), {}, 5)).toEqual({
      method: "PUT",
      url: "http://m/_matrix/client/v3/rooms/!r%3Ax/send/m.room.message/collab-5",
      headers: { authorization: "Bearer k" },
    });
    const chat = chatBody("hangouts-chat", facts, {});
    expect(chatRequest("hangouts-chat", {}, secrets({ webhook: "https://chat.example/v1/spaces/s/messages?key=k" }), chat, 5).url).toBe("https://chat.example/v1/spaces/s/messages?key=k&messageReplyOption=REPLY_MESSAGE_FALLBACK_TO_NEW_THREAD");
    expect(chatRequest("discord", {}, secrets({ webhook: "https://d.example/h" }), {}, 5)).toEqual({ method: "POST", url: "https://d.example/h" });
  });
});
