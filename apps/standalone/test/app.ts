import { startTestApp } from "@collab/testing";
import { createGatewayService } from "@collab/gateway";
import { domainSchemas } from "@collab/standalone/services";

/** The whole API in one broker, as `npm start` runs it. */
export const startApp = (label: string) => startTestApp(() => [createGatewayService(), ...domainSchemas()], label);

/** The whole API on another licence tier (LICENSE_TIER is read at start), restored on stop. */
export async function startAppOnTier(label: string, tier: string) {
  const previous = process.env.LICENSE_TIER;
  process.env.LICENSE_TIER = tier;
  const app = await startApp(label);
  return {
    ...app,
    async stop() {
      await app.stop();
      if (previous === undefined) delete process.env.LICENSE_TIER;
      else process.env.LICENSE_TIER = previous;
    },
  };
}
