# Gatehouse in a container: the same `@gatehouse/server` package npm users install, built from this
# repository in a first stage and installed alone (production dependencies only) in the second.
#
#   docker build -t gatehouse .
#   docker run -p 8080:8080 -v gatehouse-data:/data -e SECRET_KEY="$(openssl rand -base64 32)" gatehouse
#
# compose.yaml runs it with PostgreSQL and Redis. NODE_IMAGE picks the base (Node 22 or 24).
ARG NODE_IMAGE=node:24-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Dependencies first: this layer is reused until the lock file changes.
COPY package.json package-lock.json ./
COPY packages/protocol/package.json packages/protocol/
COPY packages/server/package.json packages/server/
COPY packages/sdk/package.json packages/sdk/
COPY packages/console-web/package.json packages/console-web/
RUN npm ci --no-audit --no-fund --loglevel=error
COPY tsconfig.base.json LICENSE ./
COPY scripts ./scripts
COPY packages ./packages
# Build, then pack as for the registry (prepack puts the console web app inside `@gatehouse/server`).
RUN npm run build \
 && mkdir /packs \
 && npm pack -w packages/protocol -w packages/server --pack-destination /packs --silent

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    LOG_FORMAT=json
WORKDIR /app
COPY --from=build /packs /tmp/packs
RUN npm install --omit=dev --no-audit --no-fund --loglevel=error /tmp/packs/gatehouse-protocol-*.tgz /tmp/packs/gatehouse-server-*.tgz \
 && rm -rf /tmp/packs /root/.npm \
 && mkdir -p /data \
 && chown node:node /data
# The image's own `node` user (uid 1000): nothing of the app is writable by it, only /data.
USER node
# The embedded database (without DATABASE_URL) and, in development, the generated secret key.
VOLUME ["/data"]
EXPOSE 8080
# /readyz: the database answers and migrations are current (docs/operations.md, "Deploying").
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/app/node_modules/.bin/gatehouse"]
CMD ["serve"]
