export { createGatewayService, API_VERSION } from "./gateway.service";
export { mountedRoutes } from "./routes";
export { REQUIRED_SERVICES } from "./health";
