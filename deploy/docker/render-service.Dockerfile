# The render service (apps/render-service): a pool of Debian's Chromium printing PDFs for render.document and
# render.preview; probes and metrics on RENDER_SERVICE_PORT (3001). The built-in fonts come from the @fontsource
# packages in node_modules; the Noto fonts are the system fonts for characters they lack.
# Build from the repository root:  docker build -f deploy/docker/render-service.Dockerfile -t docrender/render-service .
# The build stage is the same in every deploy/docker/*.Dockerfile (and the system stage in the five without Chromium),
# so one build caches them for all images. The image is one flattened file system (FROM scratch): what the app runs,
# node, tini as PID 1, and for the render service Debian's Chromium. deploy/README.md, "Images".
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# Compile every TypeScript source to dist/ with SWC (tools/build.mjs); needs the dev dependencies. npm's cache is a
# build cache mount, shared by the six builds and kept between builds, never part of an image.
FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --ignore-scripts --no-audit --no-fund --prefer-offline
COPY tsconfig.base.json ./
COPY tools/build.mjs tools/swc-options.json tools/
COPY tools/images/collect-app.mjs tools/images/
COPY libs libs
COPY apps apps
RUN node tools/build.mjs --quiet
# What each app runs, and nothing else, in /apps/<app>: its entry points, the dist/ and node_modules files they reach,
# package.json (tools/images/collect-app.mjs). No TypeScript, no source maps, no development dependency. One trace for
# the six apps, so this stage stays the same in every Dockerfile.
RUN node tools/images/collect-app.mjs /apps api-gateway render-service job-worker webhook-dispatcher workspace admin-cli

# The run-time file system of the render service: the Node.js image with Debian's Chromium, the built-in script fonts
# fonts-noto-core and fonts-noto-cjk (docs/decisions/0030-fonts-the-service-owns.md; the serif CJK collections are not
# among them), icc-profiles-free (the sRGB profile of PDF/A output intents, decision 0032) and tini; without npm, apt's
# lists and caches. The Chromium version is recorded in /etc/chromium-version; the service checks the browser it
# starts against puppeteer's (docs/decisions/0040-container-images.md).
# chromium-common depends on x11-utils (xdpyinfo and other X11 desktop tools), which pulls in libGL and through it
# Mesa's DRI drivers, LLVM 15 and Z3: about 165 MB that headless Chromium never loads (it is linked to libgbm, not
# libGL; it runs with --disable-gpu and brings its own ANGLE and SwiftShader). They are purged by name, leaving
# chromium-common's dependency on x11-utils unmet in dpkg's database; nothing installs packages in the image later.
FROM ${NODE_IMAGE} AS chromium
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-noto-core fonts-noto-cjk icc-profiles-free tini \
 && dpkg --purge --force-depends x11-utils libgl1 libglx0 libglx-mesa0 libgl1-mesa-dri libllvm15 libz3-4 \
 && rm -f /usr/share/fonts/opentype/noto/NotoSerifCJK-*.ttc \
 && chromium --version > /etc/chromium-version \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/cache/debconf/*-old /var/log/* \
    /usr/local/lib/node_modules /usr/local/include /usr/local/share /usr/local/bin/npm /usr/local/bin/npx \
    /usr/local/bin/corepack /usr/local/bin/yarn /usr/local/bin/yarnpkg /opt/yarn-* /usr/share/doc /usr/share/man \
 && fc-cache -s >/dev/null \
 && cat /etc/chromium-version

FROM scratch AS runtime
COPY --from=chromium / /
COPY --from=build /apps/render-service /app
# Reported by GET /v1/meta/version; empty means the package.json version.
ARG BUILD_VERSION=
# HOME=/tmp: Chromium and fontconfig write their caches under HOME, and /tmp is the one writable place when the root
# file system is read-only (Kubernetes mounts an emptyDir there; docker-compose a tmpfs).
# MALLOC_MMAP_THRESHOLD_: glibc keeps its mmap threshold at 128 KiB instead of raising it after the first large free,
# so the PDFs and documents the service handles in buffers of hundreds of KiB are given back when freed; without it the
# process's RSS kept growing over a 10,000-document soak (docs/performance.md, "Memory over a long run").
ENV PATH=/usr/local/bin:/usr/bin:/bin \
    NODE_ENV=production \
    BUILD_VERSION=${BUILD_VERSION} \
    RENDER_SERVICE_PORT=3001 \
    PUPPETEER_EXECUTABLE_PATH=/usr/bin/chromium \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOME=/tmp
WORKDIR /app
# uid/gid 1000 (the node user), by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3001
# Exec form, the port from the environment (libs/platform/src/meta/health-check.main.ts): no shell, nothing to split.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/libs/platform/src/meta/health-check.main.js", "RENDER_SERVICE_PORT"]
# tini is PID 1: it forwards SIGTERM to node and reaps orphaned processes (Chromium's helpers if a browser dies).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/apps/render-service/src/main.js"]
