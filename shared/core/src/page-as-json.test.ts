import type { Context, ServiceBroker } from "moleculer";
import { pageAsJsonMiddleware } from "./page-as-json";
import { isJsonPage, isPage, page } from "./reply";

type Hooked = { created(b: ServiceBroker): void; localAction(next: (ctx: Context) => Promise<unknown>): (ctx: Context) => Promise<unknown> };

const answerWith = (answer: unknown) => {
  const mw = pageAsJsonMiddleware() as unknown as Hooked;
  mw.created({ nodeID: "issues-1" } as ServiceBroker);
  return (ctx: Partial<Context>) => mw.localAction(async () => answer)(ctx as Context);
};
const items = [{ id: 1, title: "Ünïcode \"quoted\"" }, { id: 2, title: null }];
const listPage = page(items, 42, { page: 2, per_page: 2 });

test("a page answered to a gateway on another node carries its items as their JSON text", async () => {
  const out = await answerWith(listPage)({ caller: "gateway", nodeID: "gateway-1" });
  expect(isJsonPage(out)).toBe(true);
  expect(out).toEqual({ $page: true, total: 42, page: 2, perPage: 2, itemsJson: JSON.stringify(items) });
  expect(JSON.parse((out as { itemsJson: string }).itemsJson)).toEqual(items);
});

test("the same page stays objects for a gateway in this process, for another service, and for non-pages", async () => {
  expect(await answerWith(listPage)({ caller: "gateway", nodeID: "issues-1" })).toBe(listPage);
  expect(await answerWith(listPage)({ caller: "issues", nodeID: "issues-2" })).toBe(listPage);
  const plain = [{ id: 1 }];
  expect(await answerWith(plain)({ caller: "gateway", nodeID: "gateway-1" })).toBe(plain);
  expect(isPage(await answerWith(listPage)({ caller: null as unknown as string, nodeID: "gateway-1" }))).toBe(true);
});
