import { startTestApp } from "@collab/testing";
import { createGatewayService } from "../src/gateway.service";
import { domainSchemas } from "../src/services";

/** The whole API in one broker, as `npm start` runs it. */
export const startApp = (label: string) => startTestApp(() => [createGatewayService(), ...domainSchemas()], label);
