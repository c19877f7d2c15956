# Stand-in for rust:1-bookworm (Docker Hub is out of reach on the machine the smoke runs on):
# the local Debian image with a C toolchain, and the host's own Rust toolchain copied in (the
# build context is that toolchain's sysroot, without its documentation).
ARG BASE
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends gcc libc6-dev make pkg-config ca-certificates git \
 && rm -rf /var/lib/apt/lists/*
COPY . /usr/local/rust/
ENV PATH=/usr/local/rust/bin:/usr/local/cargo/bin:$PATH \
    CARGO_HOME=/usr/local/cargo
RUN cargo --version && rustc --version
