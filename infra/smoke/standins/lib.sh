# Shared by infra/smoke/run.sh and infra/swarm/run.sh (sourced, not run): installing what the
# container runs need from Debian, starting dockerd, and building the local stand-ins for
# Docker Hub's images (Docker Hub is out of reach on the machines this project is built on).
# Sourced from the repository root; `use_state NAME` sets ROOT and STATE (the scratch directory,
# target/NAME). STANDINS_REBUILD set: the stand-ins are built again.

use_state() { ROOT=$PWD; STATE=$ROOT/target/$1; mkdir -p "$STATE"; }
now_ms() { date +%s%3N; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
step() { printf '\n== %s\n' "$*"; }

# need_packages COMMAND=PACKAGE...: installs the packages whose command is missing.
need_packages() {
  local need=() pair
  for pair in "$@"; do
    command -v "${pair%%=*}" >/dev/null || need+=("${pair#*=}")
  done
  if [ ${#need[@]} -gt 0 ]; then
    step "installing ${need[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
}

# Debian's docker client has BuildKit built in (a newer client elsewhere on the PATH may need
# the buildx plugin, which Debian does not ship).
DOCKER=docker
[ -x /usr/bin/docker ] && DOCKER=/usr/bin/docker
export DOCKER_BUILDKIT=1
docker_() { as_root "$DOCKER" "$@"; }

# Starts dockerd (log in $STATE/dockerd.log) when none answers.
ensure_dockerd() {
  if ! docker_ info >/dev/null 2>&1; then
    step "starting dockerd (log: $STATE/dockerd.log)"
    as_root sh -c "nohup dockerd >'$STATE/dockerd.log' 2>&1 &"
    for _ in $(seq 60); do docker_ info >/dev/null 2>&1 && break; sleep 1; done
    docker_ info >/dev/null
  fi
}

LOCAL=vitrine-local
BASE=$LOCAL/debian:bookworm-slim
have() { [ -z "${STANDINS_REBUILD:-}" ] && docker_ image inspect "$1" >/dev/null 2>&1; }

# $BASE: Debian bookworm from debootstrap.
standin_base() {
  have "$BASE" && return 0
  step "debootstrap: $BASE"
  local rootfs=$STATE/rootfs bundle=/etc/ssl/certs/ca-certificates.crt
  as_root rm -rf "$rootfs"
  as_root debootstrap --variant=minbase bookworm "$rootfs" http://deb.debian.org/debian >/dev/null
  as_root rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  # The host's own extra CAs (a TLS-intercepting egress proxy, a company CA) go in as well, so
  # that cargo, npm and pip in the images reach their registries as the host does; the
  # ca-certificates package adds them to the bundle when an image installs it.
  as_root install -d "$rootfs/usr/local/share/ca-certificates"
  as_root sh -c "cp /usr/local/share/ca-certificates/*.crt '$rootfs/usr/local/share/ca-certificates/' 2>/dev/null || true"
  as_root tar -C "$rootfs" -c . | docker_ import -c 'CMD ["/bin/bash"]' -c "ENV SSL_CERT_FILE=$bundle" \
    -c "ENV NODE_EXTRA_CA_CERTS=$bundle" -c "ENV PIP_CERT=$bundle" - "$BASE" >/dev/null
  as_root rm -rf "$rootfs"
}

# standin IMAGE DOCKERFILE CONTEXT: builds IMAGE on $BASE unless it exists.
standin() {
  if ! have "$1"; then
    step "stand-in: $1"
    docker_ build -q --build-arg "BASE=$BASE" -f "$2" -t "$1" "$3" >/dev/null
  fi
}

# prom_up [URL]: the instances Prometheus (on host port 9099) scrapes successfully, sorted, one
# line; prom_rules: how many alert rules it loaded.
prom_up() {
  curl -fsS "${1:-http://127.0.0.1:9099}/api/v1/targets" 2>/dev/null \
    | jq -r '[.data.activeTargets[] | select(.health == "up") | .labels.instance] | sort | join(" ")' 2>/dev/null || true
}
prom_rules() {
  curl -fsS "${1:-http://127.0.0.1:9099}/api/v1/rules" 2>/dev/null | jq '[.data.groups[].rules[]] | length' 2>/dev/null || echo 0
}

# api METHOD PATH [JSON]: the control plane's API at $CP, with the cookie jar $jar.
api() {
  curl -sS -b "$jar" -c "$jar" -X "$1" -H 'content-type: application/json' \
    ${3:+--data "$3"} "$CP$2"
}
# new_site NAME: a new owner (email and password from NAME, lowercased) and a project NAME;
# sets owner, project_json, project, slug, home (the first page's id) and host.
new_site() {
  jar=$STATE/cookies
  rm -f "$jar"
  owner="${1,,}-$(date +%s)@example.com"
  api POST /api/register "{\"name\":\"$1\",\"email\":\"$owner\",\"password\":\"${1,,}-password\"}" >/dev/null
  project_json=$(api POST /api/projects "{\"name\":\"$1\"}")
  project=$(jq -r .id <<<"$project_json")
  slug=$(jq -r .slug <<<"$project_json")
  home=$(jq -r '.pages[0].id' <<<"$project_json")
  host=$slug.localhost
}
