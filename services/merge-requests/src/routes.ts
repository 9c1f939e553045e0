import type { RouteDef } from "@collab/core";

export const routes: RouteDef[] = [];
