import type { ServiceSchema } from "moleculer";
import { accountsService } from "./accounts.service";

export { ACCOUNTS_EVENTS } from "./accounts.service";
export const schemas: ServiceSchema[] = [accountsService];
