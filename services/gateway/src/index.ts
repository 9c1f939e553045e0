export { createGatewayService, API_VERSION } from "./gateway.service";
export { mountedRoutes, mountedWebRoutes } from "./routes";
export { REQUIRED_SERVICES, answerProbe } from "./health";
export { buildOpenApi, pathParamsOf, wireSchema, type DocumentedAction } from "./openapi";
export { contractActions, Gateway, MOUNTED_SERVICES, SERVICE_CONTRACTS, type MountedService } from "./contracts";
