export * from "./standalone";
export { DOMAIN_SERVICES, domainSchemas, SECRET_STORES } from "./services";
export { reencryptAll } from "./reencrypt-secrets";
