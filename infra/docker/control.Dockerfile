# vitrine-control: the control plane (API under /api and /erp, and the dashboard).
# Build from the repository root:
#   docker build -f infra/docker/control.Dockerfile -t vitrine-control .
# The base images are build arguments, so a machine without Docker Hub can name local ones
# (infra/smoke/run.sh builds this file with stand-ins; see docs/fleet.md).

ARG NODE_IMAGE=node:22-bookworm
ARG RUST_IMAGE=rust:1-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim
# Where the binary and the dashboard come from: "build-all" builds them below; "prebuilt" takes
# `vitrine-control` and `dashboard/` (the built dashboard) from the build context instead
# (infra/swarm/run.sh passes a directory holding what was built on the host, which has the
# same Debian release). Stages not needed for the result are not built.
ARG BINARIES=build-all

# ---- dashboard ---------------------------------------------------------------------------
FROM ${NODE_IMAGE} AS dashboard
WORKDIR /src/dashboard
COPY dashboard/package.json dashboard/package-lock.json ./
# `npm ci`, as scripts/test.sh: exactly what the committed lock file records (every platform's
# optional packages are in it).
RUN npm ci --no-audit --no-fund
COPY dashboard/ ./
RUN npm run build

# ---- build -------------------------------------------------------------------------------
FROM ${RUST_IMAGE} AS build
WORKDIR /src
# rust-toolchain.toml pins the toolchain; rustup in the image installs it on first use.
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p vitrine-control-plane --bin vitrine-control \
 && install -D -m 0755 target/release/vitrine-control /out/vitrine-control

FROM scratch AS prebuilt
COPY vitrine-control /out/vitrine-control
COPY dashboard/ /src/dashboard/dist/

# "build-all": the two build stages above, gathered as "prebuilt" is.
FROM scratch AS build-all
COPY --from=build /out/vitrine-control /out/vitrine-control
COPY --from=dashboard /src/dashboard/dist/ /src/dashboard/dist/

FROM ${BINARIES} AS binaries

# ---- runtime -----------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE}
# Block and template thumbnails need headless Chromium; to have them, add `chromium` (and
# `fonts-dejavu-core`) to the apt-get line below (about 300 MB more). Without it the control
# plane runs and logs that screenshots are unavailable.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 vitrine \
 && useradd --system --uid 10001 --gid vitrine --home-dir /var/lib/vitrine --shell /usr/sbin/nologin vitrine \
 && install -d -o vitrine -g vitrine /var/lib/vitrine
# Migrations are compiled into the binary (sqlx::migrate!): `vitrine-control migrate` needs no files.
COPY --from=binaries /out/vitrine-control /usr/local/bin/vitrine-control
COPY --from=binaries /src/dashboard/dist /usr/share/vitrine/dashboard

ENV VITRINE_DASHBOARD_DIR=/usr/share/vitrine/dashboard \
    VITRINE_DATA_DIR=/var/lib/vitrine \
    VITRINE_CONTROL_LISTEN=0.0.0.0:8000 \
    VITRINE_CONTROL_ADMIN_LISTEN=0.0.0.0:9091 \
    VITRINE_LOG_FORMAT=json
USER vitrine
WORKDIR /var/lib/vitrine
EXPOSE 8000 9091
# SIGTERM: stop accepting, finish in-flight requests, exit.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD curl -fsS http://127.0.0.1:9091/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/vitrine-control"]
CMD ["serve"]
