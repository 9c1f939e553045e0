# syntax=docker/dockerfile:1

# ---- build: install everything, compile every workspace, then drop dev dependencies ----------
FROM node:22 AS build
WORKDIR /app
ENV TURBO_TELEMETRY_DISABLED=1 \
    npm_config_audit=false \
    npm_config_fund=false \
    npm_config_update_notifier=false
# The whole context at once: npm ci must see every workspace's package.json to link them.
# npm install only when npm ci refuses a lock file lacking other platforms' optional packages
# (npm/cli#4828); it keeps the locked versions.
COPY . .
RUN (npm ci || npm install) \
 && npm run build \
 && npm prune --omit=dev \
 && npm cache clean --force

# ---- runtime: compiled code, production dependencies, drizzle migrations --------------------
FROM node:22-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    PGLITE_DATA_DIR=/app/data/pglite
WORKDIR /app
# Workspace links in node_modules/@collab point into shared/ and services/, copied alongside.
COPY --from=build --chown=node:node /app /app
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/-/readiness').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Embedded mode: the gateway and every service in this one process.
CMD ["node", "services/gateway/dist/embedded.js"]
