#!/bin/bash
# Entry point of the Vitrine services in infra/swarm/stack.yaml (mounted as a Docker config):
#   start.sh vitrine-control|vitrine-edge
# 1. exports the Docker secret /run/secrets/vitrine-env (KEY=value lines) into the
#    environment, where the binaries read VITRINE_DATABASE_URL and object_store reads AWS_*;
# 2. an edge claims a spool directory of its own under /var/lib/vitrine/spool (the node's
#    `spool` volume), the first of 0, 1, 2, ... that no running task holds (flock, held by the
#    server for its lifetime since the descriptor is inherited through exec), and takes a node
#    id from the node's name and that directory; a spool a dead task left behind is thus
#    replayed by the next task that starts on the node;
# 3. applies the migrations (idempotent, serialised by the database), then execs the server,
#    so SIGTERM reaches it directly.
set -euo pipefail
bin=$1
if [ -r /run/secrets/vitrine-env ]; then
    set -a
    # shellcheck disable=SC1091
    . /run/secrets/vitrine-env
    set +a
fi
if [ "$bin" = vitrine-edge ]; then
    root=/var/lib/vitrine/spool
    for n in $(seq 0 63); do
        mkdir -p "$root/$n"
        exec 9>"$root/$n/.claim"
        if flock -n 9; then
            export VITRINE_EDGE_SPOOL_DIR=$root/$n
            export VITRINE_EDGE_NODE_ID="${NODE_NAME:-$(hostname)}-spool-$n"
            break
        fi
        exec 9>&-
    done
    [ -n "${VITRINE_EDGE_SPOOL_DIR:-}" ] || { echo "start.sh: no free spool directory under $root" >&2; exit 1; }
    echo "start.sh: spool $VITRINE_EDGE_SPOOL_DIR, node id $VITRINE_EDGE_NODE_ID"
fi
for attempt in $(seq 30); do
    "/usr/local/bin/$bin" migrate && break
    [ "$attempt" = 30 ] && exit 1
    sleep 2
done
exec "/usr/local/bin/$bin" serve
