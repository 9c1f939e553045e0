import type { ServiceSchema } from "moleculer";

export const schemas: ServiceSchema[] = [];
