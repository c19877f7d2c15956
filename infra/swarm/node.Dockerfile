# A Swarm worker node for infra/swarm/run.sh: Debian bookworm (the local debootstrapped
# stand-in) with Debian's Docker Engine, run as Docker-in-Docker. It is started without
# --privileged (the machine withholds CAP_SYS_RESOURCE, which --privileged asks for): with
# every other capability, unconfined seccomp and AppArmor, and the cgroup tree mounted.
ARG BASE
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends docker.io iptables ca-certificates curl procps \
 && rm -rf /var/lib/apt/lists/*
VOLUME ["/var/lib/docker"]
STOPSIGNAL SIGTERM
CMD ["/usr/sbin/dockerd", "--host=unix:///var/run/docker.sock"]
