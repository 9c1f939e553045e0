# syntax=docker/dockerfile:1
# One image for every Collab process; the command picks the entry point:
#   node apps/standalone/dist/embedded.js   everything in one process (the default CMD)
#   node services/gateway/dist/main.js       the HTTP gateway alone (distributed mode)
#   node services/<svc>/dist/main.js         one domain service alone (distributed mode)
#   node apps/standalone/dist/migrate.js    applies every service's migrations, then exits
# docker-compose.yml and deploy/k8s/ run it with those commands.

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
 && npm cache clean --force \
 && rm -rf shared/*/src services/*/src services/*/test apps/*/src bench scripts
# What is left per workspace: package.json, dist/ and, for a domain service, drizzle/ (its
# migrations, read at run time).

# ---- runtime: compiled code, production dependencies, drizzle migrations --------------------
FROM node:22-slim AS runtime
# Without DATABASE_URL, embedded.js runs its own PostgreSQL in /app/data/postgres (a volume
# there keeps it; the image runs as a normal user, as PostgreSQL requires).
ENV NODE_ENV=production \
    PORT=3000 \
    EMBEDDED_PG_DIR=/app/data/postgres \
    REPOSITORY_STORAGES=default:/app/data/repositories \
    PGLITE_DATA_DIR=/app/data/pglite
WORKDIR /app
# git: the repositories service runs the git CLI (Debian 12's 2.39 has merge-tree --write-tree); bzip2 for tar.bz2 archives.
RUN apt-get update \
 && apt-get install -y --no-install-recommends git bzip2 ca-certificates \
 && rm -rf /var/lib/apt/lists/*
# Workspace links in node_modules/@collab point into shared/ and services/, copied alongside.
# The code stays owned by root (read-only for the process); only data/ is writable.
COPY --from=build /app /app
# data/repositories: the default git storage (REPOSITORY_STORAGES), a volume's mount point.
RUN mkdir -p /app/data/repositories && chown -R node:node /app/data
# uid 1000 in the node images; Kubernetes manifests set runAsUser: 1000 to match.
USER node
EXPOSE 3000
# Readiness on HEALTH_PORT when set (a domain service's probes), else on PORT (the gateway's).
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (Number(process.env.HEALTH_PORT) || process.env.PORT || 3000) + '/-/readiness').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/standalone/dist/embedded.js"]
