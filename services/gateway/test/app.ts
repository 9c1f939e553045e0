import { schemas as accounts } from "@collab/accounts";
import { schemas as namespaces } from "@collab/namespaces";
import { schemas as issues } from "@collab/issues";
import { startTestApp } from "@collab/testing";
import { createGatewayService } from "../src/gateway.service";

/** The whole API in one broker, as `npm start` runs it. */
export const startApp = (label: string) => startTestApp(() => [createGatewayService(), ...accounts, ...namespaces, ...issues], label);
