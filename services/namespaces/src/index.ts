import type { ServiceSchema } from "moleculer";
import { namespacesService } from "./namespaces.service";

export { NAMESPACES_EVENTS } from "./namespaces.service";
export const schemas: ServiceSchema[] = [namespacesService];
