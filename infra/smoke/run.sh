#!/usr/bin/env bash
# Container smoke test of infra/ (issue 8): builds both images from infra/docker/, brings up
# infra/compose.yaml (PostgreSQL, an S3 store, migrations, the control plane, two edges, the
# nginx load balancer) with Docker, and checks the fleet from the outside:
#
#   1. the dashboard answers on :8000 and both edges report healthy;
#   2. a publish through the control plane is served by edge-a, edge-b and the LB (:80);
#   3. a redirect change reaches both edges;
#   4. both nodes' heartbeats show on the ops API (/api/edges, as the seeded admin); both
#      edges and the control plane export Prometheus metrics on their admin listeners, and
#      Prometheus (infra/prometheus/ as mounted by the compose file) scrapes all three and
#      loads the alert rules;
#   5. SIGKILL of edge-a under load through the LB: no request fails;
#   6. a rolling restart of edge-b (SIGTERM, drain, start) under load: no request fails;
#   7. PostgreSQL stopped: the site is still served and form posts are accepted (spooled);
#      PostgreSQL back: every one of them reaches the form history.
#
# Docker Hub is out of reach on the machines this project is built on, so every base image is a
# local stand-in: Debian bookworm from debootstrap, the host's Rust toolchain and Node.js on it,
# and PostgreSQL 15, moto's S3 server, nginx and Prometheus from Debian's packages and PyPI
# (infra/smoke/standins/, infra/smoke/compose.standins.yaml). The Vitrine images are built from
# the very Dockerfiles in infra/docker/, with those stand-ins as their base-image arguments.
#
# Needs root (or sudo) and about 10 GB of disk; installs docker.io, docker-compose, debootstrap,
# curl and jq from Debian's packages when missing and starts dockerd when none answers. The first
# run builds everything (about 12 minutes on 2 cores); later runs reuse the images and the
# BuildKit cache. Uses host ports 80, 443, 8000 and 9099.
#
#   bash infra/smoke/run.sh              # build, run the checks, tear down (volumes too)
#   SMOKE_KEEP=1 bash infra/smoke/run.sh # leave the fleet running afterwards
#   SMOKE_REBUILD=1 ...                  # rebuild the stand-in base images as well
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=infra/smoke/standins/lib.sh
. infra/smoke/standins/lib.sh
use_state smoke
STANDINS_REBUILD=${SMOKE_REBUILD:-}
fails=0
ok() { echo "ok:   $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

need_packages dockerd=docker.io docker-compose=docker-compose debootstrap=debootstrap jq=jq curl=curl
ensure_dockerd
COMPOSE=(as_root docker-compose -p vitrine-smoke -f infra/compose.yaml -f infra/smoke/compose.standins.yaml)

# ---- stand-in base images ------------------------------------------------------------------
standin_base
if ! have "$LOCAL/rust:1-bookworm"; then
  ctx=$STATE/rust-context
  as_root rm -rf "$ctx" && mkdir -p "$ctx"
  cp -a "$(rustc --print sysroot)/." "$ctx/"
  rm -rf "$ctx/share/doc"
fi
standin "$LOCAL/rust:1-bookworm" infra/smoke/standins/rust.Dockerfile "$STATE/rust-context"
if ! have "$LOCAL/node:22-bookworm"; then
  ctx=$STATE/node-context
  rm -rf "$ctx" && mkdir -p "$ctx"
  cp "$(readlink -f "$(command -v node)")" "$ctx/node"
  cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$ctx/npm"
fi
standin "$LOCAL/node:22-bookworm" infra/smoke/standins/node.Dockerfile "$STATE/node-context"
standin "$LOCAL/postgres:15" infra/smoke/standins/postgres.Dockerfile infra/smoke/standins
standin "$LOCAL/s3" infra/smoke/standins/s3.Dockerfile infra/smoke/standins
standin "$LOCAL/nginx" infra/smoke/standins/lb.Dockerfile infra/smoke/standins
standin "$LOCAL/prometheus" infra/smoke/standins/prometheus.Dockerfile infra/smoke/standins
as_root rm -rf "$STATE/rust-context" "$STATE/node-context"

# ---- the Vitrine images, from infra/docker/ ------------------------------------------------
args=(--build-arg "RUST_IMAGE=$LOCAL/rust:1-bookworm" --build-arg "RUNTIME_IMAGE=$BASE")
step "building vitrine-control:local (infra/docker/control.Dockerfile)"
t0=$(date +%s)
docker_ build -f infra/docker/control.Dockerfile "${args[@]}" \
  --build-arg "NODE_IMAGE=$LOCAL/node:22-bookworm" -t vitrine-control:local . > "$STATE/build-control.log" 2>&1 \
  || { tail -40 "$STATE/build-control.log"; exit 1; }
step "building vitrine-edge:local (infra/docker/edge.Dockerfile)"
docker_ build -f infra/docker/edge.Dockerfile "${args[@]}" -t vitrine-edge:local . > "$STATE/build-edge.log" 2>&1 \
  || { tail -40 "$STATE/build-edge.log"; exit 1; }
echo "images built in $(( $(date +%s) - t0 )) s:"
docker_ image ls --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E '^vitrine-(control|edge):local' | sed 's/^/  /'

# ---- the fleet -----------------------------------------------------------------------------
teardown() {
  if [ -n "${SMOKE_KEEP:-}" ]; then
    echo "SMOKE_KEEP: the fleet stays up (${COMPOSE[*]:1} down -v to remove it)"
  else
    "${COMPOSE[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  fi
}
trap teardown EXIT
"${COMPOSE[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
step "docker-compose up (infra/compose.yaml with the stand-ins)"
"${COMPOSE[@]}" up -d --no-build 2>&1 | tail -15
# Prometheus of the "monitoring" profile (infra/prometheus/ mounted as is); Grafana has no
# stand-in (it is not packaged by Debian), so only its dashboard's metric names are checked,
# by infra/check.sh.
"${COMPOSE[@]}" up -d --no-build prometheus 2>&1 | tail -3

cid() { "${COMPOSE[@]}" ps -q "$1"; }
health() { docker_ inspect -f '{{.State.Health.Status}}' "$(cid "$1")" 2>/dev/null || echo missing; }
wait_healthy() { # service seconds
  for _ in $(seq $(( $2 * 2 ))); do [ "$(health "$1")" = healthy ] && return 0; sleep 0.5; done
  return 1
}
CP=http://127.0.0.1:8000
LB=http://127.0.0.1
# 1. ---------------------------------------------------------------------------------------
step "1. control plane and edges up"
for _ in $(seq 120); do curl -fsS -o /dev/null "$CP/" 2>/dev/null && break; sleep 0.5; done
if curl -fsS "$CP/" | grep -q '<div id="root"'; then ok "dashboard served by the control plane on :8000"
else fail "dashboard on :8000"; "${COMPOSE[@]}" logs --tail 30 control; fi
for e in edge-a edge-b; do
  if wait_healthy "$e" 60; then ok "$e healthy (its container HEALTHCHECK: /healthz on the admin listener)"
  else fail "$e not healthy: $(health "$e")"; "${COMPOSE[@]}" logs --tail 30 "$e"; fi
done

# 2. ---------------------------------------------------------------------------------------
step "2. publish through the control plane"
new_site Smoke
marker="smoke-$(date +%s%N)"
page_body=$(jq -nc --arg m "$marker" '{blocks:[{uid:"conteudo",name:"Conteúdo",template:("<h1>" + $m + "</h1>"),css:"",js:""}]}')
api POST "/api/page/$home" "$page_body" >/dev/null
on_edge() { # service curl-args...: curl inside that edge's container
  local svc=$1; shift
  docker_ exec "$(cid "$svc")" curl -sS -m 3 "$@" 2>/dev/null || true
}
called_at=$(now_ms)
publish=$(api POST "/api/publish_v2/$project" "{\"project_id\":$project}")
published_at=$(now_ms)
if [ "$(jq -r '.deploy.id // empty' <<<"$publish" 2>/dev/null)" != "" ]; then
  ok "publish call answered in $(( published_at - called_at )) ms: deploy $(jq -r .deploy.id <<<"$publish"), $(jq -r .url <<<"$publish")"
else fail "publish: $publish"; fi
serves() { # where marker
  case $1 in
    lb) curl -sS -m 3 -H "Host: $host" "$LB/" 2>/dev/null | grep -q "$2" ;;
    *) on_edge "$1" -H "Host: $host" http://127.0.0.1:8080/ | grep -q "$2" ;;
  esac
}
# Each place is polled by its own loop, all at once, so one's polling does not delay another's.
for where in edge-a edge-b lb; do
  ( for _ in $(seq 100); do
      serves "$where" "$marker" && { echo $(( $(now_ms) - published_at )) > "$STATE/seen-$where"; exit; }
      sleep 0.05
    done; echo never > "$STATE/seen-$where" ) &
done
wait
for where in edge-a edge-b lb; do
  seen=$(cat "$STATE/seen-$where")
  if [ "$seen" != never ]; then ok "$host served by $where ${seen} ms after the publish call returned"
  else fail "$host not served by $where"; fi
done

# 3. ---------------------------------------------------------------------------------------
step "3. a redirect change reaches both edges"
api POST /api/redirects "{\"project_id\":$project,\"from\":\"/antigo/*\",\"to\":\"/novo/*\"}" >/dev/null
changed_at=$(now_ms)
for e in edge-a edge-b; do
  ( for _ in $(seq 100); do
      loc=$(on_edge "$e" -o /dev/null -w '%{http_code} %{redirect_url}' -H "Host: $host" "http://127.0.0.1:8080/antigo/x?y=1")
      [ "$loc" = "301 http://127.0.0.1:8080/novo/x?y=1" ] && { echo $(( $(now_ms) - changed_at )) > "$STATE/redirect-$e"; exit; }
      sleep 0.05
    done; echo "never (last answer: $loc)" > "$STATE/redirect-$e" ) &
done
wait
for e in edge-a edge-b; do
  seen=$(cat "$STATE/redirect-$e")
  case $seen in
    never*) fail "$e: redirect not applied, $seen" ;;
    *) ok "$e answers 301 /antigo/x?y=1 -> /novo/x?y=1, ${seen} ms after the change was saved" ;;
  esac
done

# 4. ---------------------------------------------------------------------------------------
step "4. heartbeats and metrics"
admin_password=smoke-admin-$RANDOM$RANDOM
"${COMPOSE[@]}" run --rm --no-deps -e "VITRINE_ADMIN_PASSWORD=$admin_password" control seed >/dev/null 2>&1 \
  || fail "seed"
rm -f "$jar"
api POST /api/login "{\"email\":\"admin@vitrine.local\",\"password\":\"$admin_password\"}" >/dev/null
for e in edge-a edge-b; do
  # Wait for a heartbeat that counts the requests above (one every few seconds).
  node=
  for _ in $(seq 40); do
    node=$(api GET /api/edges | jq -c --arg id "$e" '.nodes[] | select(.id == $id)' 2>/dev/null || true)
    [ -n "$node" ] && [ "$(jq -r .requests <<<"$node")" -gt 0 ] && break
    sleep 0.5
  done
  if [ -n "$node" ] && [ "$(jq -r .stale <<<"$node")" = false ] && [ "$(jq -r .requests <<<"$node")" -gt 0 ]; then
    ok "$e heartbeat on /api/edges: $(jq -c '{version, requests, p99_ms, cache_hit_ratio}' <<<"$node")"
  else fail "$e heartbeat missing, stale or without requests: $node"; fi
  if on_edge "$e" http://127.0.0.1:9090/metrics | grep -q '^vitrine_edge_requests_total'; then
    ok "$e /metrics exports vitrine_edge_requests_total"
  else fail "$e /metrics"; fi
done
if docker_ exec "$(cid control)" curl -sS -m 3 http://127.0.0.1:9091/metrics | grep -q '^vitrine_control_'; then
  ok "control plane /metrics exports vitrine_control_* families"
else fail "control plane /metrics"; fi

# Prometheus scrapes every admin listener with infra/prometheus/prometheus.yml (15 s interval)
# and loads the alert rules.
targets=
for _ in $(seq 60); do
  targets=$(prom_up)
  [ "$targets" = "control:9091 edge-a:9090 edge-b:9090" ] && break
  sleep 1
done
if [ "$targets" = "control:9091 edge-a:9090 edge-b:9090" ]; then ok "Prometheus scrapes all three admin listeners: $targets"
else fail "Prometheus targets up: '$targets' (expected control:9091 edge-a:9090 edge-b:9090)"; fi
rules=$(prom_rules)
if [ "${rules:-0}" -gt 0 ]; then ok "Prometheus loaded $rules alert rules from infra/prometheus/alerts.yml"
else fail "Prometheus loaded no alert rules"; fi
served=0
for _ in $(seq 40); do # the first scrape may predate the requests; scrapes are 15 s apart
  served=$(curl -fsS http://127.0.0.1:9099/api/v1/query --data-urlencode 'query=sum(vitrine_edge_requests_total)' 2>/dev/null \
    | jq -r '.data.result[0].value[1] // "0"' 2>/dev/null || echo 0)
  [ "${served%.*}" -gt 0 ] 2>/dev/null && break
  sleep 1
done
if [ "${served%.*}" -gt 0 ] 2>/dev/null; then ok "Prometheus query sum(vitrine_edge_requests_total) = $served"
else fail "Prometheus query sum(vitrine_edge_requests_total) = $served"; fi

# 5/6. -------------------------------------------------------------------------------------
load() { # out-file count: sequential GETs through the LB, one status code per line
  for _ in $(seq "$2"); do
    curl -s -m 5 -o /dev/null -w '%{http_code}\n' -H "Host: $host" "$LB/" || echo 000
  done > "$1"
}
judge() { # out-file what
  local total bad
  total=$(wc -l < "$1"); bad=$(grep -vc '^200$' "$1" || true)
  if [ "$bad" = 0 ]; then ok "$2: $total requests through the LB, all 200"
  else fail "$2: $bad of $total requests through the LB failed ($(sort "$1" | uniq -c | tr '\n' ' '))"; fi
}
step "5. SIGKILL of edge-a under load"
load "$STATE/kill.txt" 600 & loader=$!
sleep 1
docker_ kill -s KILL "$(cid edge-a)" >/dev/null
wait $loader
judge "$STATE/kill.txt" "edge-a killed mid-run"
"${COMPOSE[@]}" up -d --no-build edge-a >/dev/null 2>&1
wait_healthy edge-a 60 && ok "edge-a back and healthy" || fail "edge-a did not come back"

step "6. rolling restart of edge-b under load"
load "$STATE/roll.txt" 600 & loader=$!
sleep 1
"${COMPOSE[@]}" stop -t 15 edge-b >/dev/null 2>&1
"${COMPOSE[@]}" up -d --no-build edge-b >/dev/null 2>&1
wait $loader
judge "$STATE/roll.txt" "edge-b stopped (SIGTERM) and started again mid-run"
wait_healthy edge-b 60 && ok "edge-b back and healthy" || fail "edge-b did not come back"
if serves edge-b "$marker"; then ok "edge-b serves the site after its restart"; else fail "edge-b after restart"; fi

# 7. ---------------------------------------------------------------------------------------
step "7. PostgreSQL stopped and started"
rm -f "$jar"
api POST /api/login "{\"email\":\"$owner\",\"password\":\"smoke-password\"}" >/dev/null
before=$(api GET "/api/projects/$project/form-history" | jq -r .history.total)
"${COMPOSE[@]}" stop postgres >/dev/null 2>&1
# Ten, under the per-visitor form rate limit (every post comes from this host's address).
served=0 accepted=0 posts=10 codes=
t7=$(now_ms)
for n in $(seq $posts); do
  curl -fsS -m 5 -o /dev/null -H "Host: $host" "$LB/" && served=$((served + 1))
  code=$(curl -s -m 5 -o /dev/null -w '%{http_code}' -H "Host: $host" -H 'accept: application/json' \
    --data "nome=Visitante+$n&mensagem=ola" "$LB/_forms" || true)
  codes="$codes $code"
  [ "$code" = 200 ] && accepted=$((accepted + 1))
done
[ $served = $posts ] && ok "site served $served/$posts times with PostgreSQL down" \
  || fail "site served $served/$posts times with PostgreSQL down"
[ $accepted = $posts ] && ok "form posts accepted $accepted/$posts with PostgreSQL down (spooled; $posts pages and posts in $(( $(now_ms) - t7 )) ms)" \
  || fail "form posts accepted $accepted/$posts with PostgreSQL down (answers:$codes)"
"${COMPOSE[@]}" start postgres >/dev/null 2>&1
wait_healthy postgres 60 || fail "postgres did not come back"
after=$before
for _ in $(seq 120); do
  after=$(api GET "/api/projects/$project/form-history" | jq -r '.history.total // empty' 2>/dev/null || true)
  [ "${after:-0}" -ge $((before + posts)) ] 2>/dev/null && break
  sleep 0.5
done
if [ "${after:-0}" = $((before + posts)) ]; then ok "form history holds all $posts spooled submissions after PostgreSQL came back"
else fail "form history: ${after:-?} submissions, expected $((before + posts))"; fi

echo
if [ $fails = 0 ]; then echo "container smoke: PASS"; else echo "container smoke: $fails FAILED"; exit 1; fi
