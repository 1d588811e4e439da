# syntax=docker/dockerfile:1
# Pacer CRM in one image: the web server (the default command) and `pacer worker` (compose.yaml runs both).
# Build: docker build -t pacer-crm .   Run: see compose.yaml and the README's "Running in production".
#
# Settings come from the environment (.env.example lists every one). MIGRATE_ON_START=true (the default) makes each
# web process bring the schema up to date as it starts; with MIGRATE_ON_START=false, run
# `docker compose run --rm app pacer db migrate` as a release step first (a web process or worker refuses to start
# on a schema with pending migrations, and says so).

# The current Node LTS; the code itself still runs on Node 20.19+ (package.json's engines) for development.
ARG NODE_IMAGE=node:22-bookworm-slim

# Compilers for the native addons (better-sqlite3, bcrypt) when no prebuilt binary fits.
FROM ${NODE_IMAGE} AS toolchain
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app

# The build: every dependency, then `npm run build` (browser bundle into public/assets, dist/server.js with the
# server bundle and its V8 code cache, made by this same Node image, dist/cli.js).
FROM toolchain AS build
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# What runs: the production dependencies only (installing builds nothing).
FROM toolchain AS production-dependencies
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# OCI labels: which release this image is (keep it equal to package.json's version; a test checks), and, given at
# build time, where its source is and when it was built:
#   docker build --build-arg SOURCE_URL=https://git.example.org/pacer-crm \
#     --build-arg CREATED=$(date -u +%Y-%m-%dT%H:%M:%SZ) -t pacer-crm .
ARG SOURCE_URL=""
ARG CREATED=""
LABEL org.opencontainers.image.title="Pacer CRM" \
  org.opencontainers.image.description="Internal CRM for a running-community organisation" \
  org.opencontainers.image.version="0.3.0" \
  org.opencontainers.image.source="${SOURCE_URL}" \
  org.opencontainers.image.created="${CREATED}"
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  UPLOAD_DIR=/app/data/uploads \
  MIGRATE_ON_START=true
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/public ./public
COPY package.json ./
COPY bin ./bin
# `pacer` on the PATH (docker compose exec app pacer users create …); data/ belongs to the unprivileged user, so the
# uploads volume mounted there is writable by it.
RUN ln -s /app/bin/pacer.js /usr/local/bin/pacer \
  && mkdir -p /app/data/uploads \
  && chown -R node:node /app/data
USER node
EXPOSE 3000
VOLUME ["/app/data"]
# The image has no curl: Node asks /healthz itself.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((res) => process.exit(res.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/server.js"]
