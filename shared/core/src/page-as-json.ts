import type { Context, Middleware, ServiceBroker } from "moleculer";
import { isPage, type JsonPage } from "./reply";

/** The gateway service's name: what moleculer puts in `ctx.caller` of the calls it makes for a request. */
const GATEWAY = "gateway";

/**
 * In a process with a transporter: a Page answered to a gateway on another node leaves with its
 * items already serialised (JsonPage), so the gateway copies that text into the HTTP answer —
 * the page is turned into JSON once, here, instead of here, then parsed back into objects and
 * serialised again there. Registered after the output check: that check sees the objects.
 * Calls within one process, and between services, get the Page as it is.
 */
export function pageAsJsonMiddleware(): Middleware {
  let broker: ServiceBroker;
  return {
    name: "PageAsJson",
    created(b: ServiceBroker) {
      broker = b;
    },
    localAction(next: (ctx: Context) => Promise<unknown>) {
      return async function pageAsJson(ctx: Context) {
        const answer = await next(ctx);
        if (ctx.caller !== GATEWAY || ctx.nodeID === undefined || ctx.nodeID === broker.nodeID || !isPage(answer)) return answer;
        const { items, ...rest } = answer;
        return { ...rest, itemsJson: JSON.stringify(items) } satisfies JsonPage;
      };
    },
  } as Middleware;
}
