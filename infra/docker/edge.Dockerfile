# vitrine-edge: serves published sites (HTTP, HTTPS, ACME) to visitors.
# Build from the repository root:
#   docker build -f infra/docker/edge.Dockerfile -t vitrine-edge .
# The base images are build arguments, so a machine without Docker Hub can name local ones
# (infra/smoke/run.sh builds this file with stand-ins; see docs/fleet.md).

ARG RUST_IMAGE=rust:1-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim
# Where the binary comes from: "build" compiles it below; "prebuilt" takes `vitrine-edge` from
# the build context instead (infra/swarm/run.sh passes a directory holding binaries built on
# the host, which has the same Debian release, rather than compiling again in an image).
# Stages not needed for the result are not built.
ARG BINARIES=build

# ---- build -------------------------------------------------------------------------------
FROM ${RUST_IMAGE} AS build
WORKDIR /src
# rust-toolchain.toml pins the toolchain; rustup in the image installs it on first use.
COPY . .
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p vitrine-edge --bin vitrine-edge \
 && install -D -m 0755 target/release/vitrine-edge /out/vitrine-edge

FROM scratch AS prebuilt
COPY vitrine-edge /out/vitrine-edge

FROM ${BINARIES} AS binaries

# ---- runtime -----------------------------------------------------------------------------
FROM ${RUNTIME_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 vitrine \
 && useradd --system --uid 10001 --gid vitrine --home-dir /var/lib/vitrine --shell /usr/sbin/nologin vitrine \
 && install -d -o vitrine -g vitrine /var/lib/vitrine /var/lib/vitrine/spool
COPY --from=binaries /out/vitrine-edge /usr/local/bin/vitrine-edge

# Non-root: the edge listens on 8080/8443 in the container; map 80/443 to them outside
# (compose ports, Kubernetes Service targetPort, or a load balancer).
ENV VITRINE_DATA_DIR=/var/lib/vitrine \
    VITRINE_EDGE_SPOOL_DIR=/var/lib/vitrine/spool \
    VITRINE_EDGE_HTTP_LISTEN=0.0.0.0:8080 \
    VITRINE_EDGE_HTTPS_LISTEN=0.0.0.0:8443 \
    VITRINE_EDGE_ADMIN_LISTEN=0.0.0.0:9090 \
    VITRINE_LOG_FORMAT=json
# The spool must outlive the container: form submissions wait here while the database is down.
VOLUME ["/var/lib/vitrine/spool"]
USER vitrine
WORKDIR /var/lib/vitrine
EXPOSE 8080 8443 9090
# SIGTERM: stop accepting, finish in-flight requests (up to 10 s), replay the spool, exit.
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS http://127.0.0.1:9090/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/vitrine-edge"]
CMD ["serve"]
