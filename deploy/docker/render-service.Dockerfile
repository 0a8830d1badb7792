# The render service (apps/render-service): a pool of Debian's Chromium printing PDFs for render.document and
# render.preview; probes and metrics on RENDER_SERVICE_PORT (3001). The built-in fonts come from the @fontsource
# packages in node_modules; DejaVu is the system fallback for characters they lack.
# Build from the repository root:  docker build -f deploy/docker/render-service.Dockerfile -t docrender/render-service .
# The build and deps stages are the same in every deploy/docker/*.Dockerfile, so one build caches them for all images.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Compile every TypeScript source to dist/ with SWC (tools/build.mjs); needs the dev dependencies.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.base.json ./
COPY tools/build.mjs tools/
COPY libs libs
COPY apps apps
RUN node tools/build.mjs --quiet

# Production dependencies only. Install scripts stay off (nothing is downloaded: no browser); the embedded PostgreSQL
# of one-process mode is a development dependency, so it is not installed: a container always gets DATABASE_URL.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
# tini is PID 1: it forwards SIGTERM to node and reaps Chromium's helper processes if a browser dies.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-dejavu-core tini \
 && rm -rf /var/lib/apt/lists/*
ARG BUILD_VERSION=
# HOME=/tmp: Chromium and fontconfig write their caches under HOME, and /tmp is the one writable place when the root
# file system is read-only (Kubernetes mounts an emptyDir there; docker-compose a tmpfs).
ENV NODE_ENV=production BUILD_VERSION=${BUILD_VERSION} RENDER_SERVICE_PORT=3001 \
    PUPPETEER_EXECUTABLE_PATH=/usr/bin/chromium PUPPETEER_SKIP_DOWNLOAD=true HOME=/tmp
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /src/dist/libs dist/libs
COPY --from=build /src/dist/apps/render-service dist/apps/render-service
# The node user of the base image, by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3001
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/apps/render-service/src/main.js"]
