# The job worker (apps/job-worker): runs async render jobs from job.run; probes and metrics on JOB_WORKER_PORT (3002).
# Build from the repository root:  docker build -f deploy/docker/job-worker.Dockerfile -t docrender/job-worker .
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

# The run-time file system of an app without a browser: glibc, libstdc++ and tini from Debian, the node binary of the
# Node.js image, a passwd entry for uid 1000 and a /tmp; no shell, no package manager, no npm. Checked here: node runs
# in it.
FROM ${NODE_IMAGE} AS system
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && mkdir -p /rootfs/usr/lib /rootfs/usr/lib64 /rootfs/usr/bin /rootfs/usr/sbin /rootfs/usr/local/bin /rootfs/etc /rootfs/tmp \
 && ln -s usr/lib /rootfs/lib && ln -s usr/lib64 /rootfs/lib64 && ln -s usr/bin /rootfs/bin && ln -s usr/sbin /rootfs/sbin \
 && chmod 1777 /rootfs/tmp \
 && dpkg -L libc6 libgcc-s1 libstdc++6 tini | grep -v -E '^/usr/share/(doc|lintian|locale|man)/' \
    | while read -r f; do if [ -L "$f" ] || [ -f "$f" ]; then echo "$f"; fi; done \
    | tar -cf - --no-recursion -T - | tar -xf - --keep-directory-symlink -C /rootfs \
 && cp /usr/local/bin/node /rootfs/usr/local/bin/node \
 && cp /etc/nsswitch.conf /etc/host.conf /rootfs/etc/ \
 && printf 'root:x:0:0:root:/root:/usr/sbin/nologin\nnode:x:1000:1000::/tmp:/usr/sbin/nologin\n' > /rootfs/etc/passwd \
 && printf 'root:x:0:\nnode:x:1000:\n' > /rootfs/etc/group \
 && chroot /rootfs /usr/local/bin/node -e "process.exit(0)" \
 && chroot /rootfs /usr/bin/tini --version \
 && rm -rf /var/lib/apt/lists/*

FROM scratch AS runtime
COPY --from=system /rootfs /
COPY --from=build /apps/job-worker /app
# Reported by GET /v1/meta/version; empty means the package.json version.
ARG BUILD_VERSION=
ENV PATH=/usr/local/bin:/usr/bin:/bin \
    NODE_ENV=production \
    BUILD_VERSION=${BUILD_VERSION} \
    JOB_WORKER_PORT=3002 \
    HOME=/tmp
WORKDIR /app
# uid/gid 1000 (the node user), by number so Kubernetes can check runAsNonRoot.
USER 1000:1000
EXPOSE 3002
# Exec form, the port from the environment (libs/platform/src/meta/health-check.main.ts): no shell, nothing to split.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 CMD ["node", "dist/libs/platform/src/meta/health-check.main.js", "JOB_WORKER_PORT"]
# tini is PID 1: it forwards SIGTERM to node and reaps orphaned processes (Chromium's helpers if a browser dies).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/apps/job-worker/src/main.js"]
