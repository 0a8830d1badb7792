# The API gateway (apps/api-gateway): the public REST API and its probes on PORT (3000); metrics on GATEWAY_METRICS_PORT.
# Build from the repository root:  docker build -f deploy/docker/api-gateway.Dockerfile -t docrender/api-gateway .
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
# Reported by GET /v1/meta/version; empty means the package.json version.
ARG BUILD_VERSION=
ENV NODE_ENV=production BUILD_VERSION=${BUILD_VERSION} PORT=3000
WORKDIR /app
COPY --from=deps /app/package.json ./
COPY --from=deps /app/node_modules node_modules
COPY --from=build /src/dist/libs dist/libs
COPY --from=build /src/dist/apps/api-gateway dist/apps/api-gateway
# The node user of the base image, by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3000
CMD ["node", "dist/apps/api-gateway/src/main.js"]
