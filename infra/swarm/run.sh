#!/usr/bin/env bash
# A Docker Swarm fleet on one machine, run for real, with node failures (docs/fleet.md,
# "Docker Swarm"): infra/swarm/stack.yaml deployed on a manager (this host: PostgreSQL, the S3
# store, the control plane, the nginx load balancer, Prometheus) and two workers (the edges),
# each worker a Docker-in-Docker node built from the project's Debian stand-in images. Then the
# drills, checked from outside (the host, through the load balancer), each printing a pass/fail
# line with its figures:
#
#   1. a publish is visible on every edge task within 1 s;
#   2. draining a worker moves its edges with no failed request through the load balancer;
#   3. stopping a worker abruptly (SIGKILL of the whole node: its dockerd and every container
#      on it) under load loses no form submission, and the site is served throughout;
#   3b. the same with PostgreSQL stopped first: the posts are spooled, the lost node's too, and
#      every one reaches the form history once the database and the node are back;
#   4. a rolling update of the edge image (start-first) under load fails no request;
#   5. a custom domain's certificate is ordered once for the whole fleet (Pebble, a real ACME
#      server, on the host; dnsmasq answers the domain's records);
#   6. Prometheus scrapes every edge and control plane task.
#
# Figures: requests and failed requests through the load balancer, their p50/p99/max during
# the drill, and the time the swarm took to reconverge (every edge task running and healthy).
#
# Needs root (or sudo), about 6 GB of disk, and host ports 80, 443, 8000 and 9099 free. Installs
# docker.io, debootstrap, jq, curl, pebble, dnsmasq and openssl from Debian's packages when
# missing, starts dockerd when none answers, and makes this host a swarm manager (it refuses a
# host that is already in a swarm). The binaries are the host's debug build of this checkout
# (cargo build; SWARM_BINARIES=DIR takes vitrine-control and vitrine-edge from DIR instead), put
# in images by infra/docker/*.Dockerfile with BINARIES=prebuilt; the dashboard is
# dashboard/dist (built with npm when missing).
#
#   bash infra/swarm/run.sh              # build, deploy, run the drills, tear everything down
#   SWARM_KEEP=1 bash infra/swarm/run.sh # leave the swarm running afterwards
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck source=infra/smoke/standins/lib.sh
. infra/smoke/standins/lib.sh
use_state swarm
results=()
fails=0
pass() { echo "PASS: $*"; results+=("PASS: $*"); }
fail() { echo "FAIL: $*"; results+=("FAIL: $*"); fails=$((fails + 1)); }
note() { echo "      $*"; }

need_packages dockerd=docker.io debootstrap=debootstrap jq=jq curl=curl pebble=pebble \
  dnsmasq=dnsmasq openssl=openssl
ensure_dockerd

STACK=vswarm # the run's own name, so its volumes are known as its own
NODES_NET=vitrine-swarm-nodes
HOST_IP=172.31.240.1 # the manager: the nodes network's gateway, this host
WORKERS=(worker-1 worker-2)
DOMAIN=loja.swarm.test
EDGES=2
OVERLAY=${STACK}_vitrine
PROBE=vitrine-swarm-probe

# ---- images --------------------------------------------------------------------------------
standin_base
standin "$LOCAL/postgres:15" infra/smoke/standins/postgres.Dockerfile infra/smoke/standins
standin "$LOCAL/s3" infra/smoke/standins/s3.Dockerfile infra/smoke/standins
standin "$LOCAL/nginx" infra/smoke/standins/lb.Dockerfile infra/smoke/standins
standin "$LOCAL/prometheus" infra/smoke/standins/prometheus.Dockerfile infra/smoke/standins
standin "$LOCAL/swarm-node" infra/swarm/node.Dockerfile infra/swarm

ctx=$STATE/context
rm -rf "$ctx" && mkdir -p "$ctx"
if [ -n "${SWARM_BINARIES:-}" ]; then
  bins=$SWARM_BINARIES
else
  step "cargo build -p vitrine-control-plane -p vitrine-edge --bins (debug)"
  nice -n 10 cargo build -q -p vitrine-control-plane -p vitrine-edge --bins
  bins=$(cargo metadata --format-version 1 --no-deps | jq -r .target_directory)/debug
fi
for b in vitrine-control vitrine-edge; do
  cp "$bins/$b" "$ctx/$b"
  # Debug information is most of a debug build's size; the images need none of it.
  if command -v objcopy >/dev/null; then objcopy --strip-debug "$ctx/$b"; fi
done
if [ ! -f dashboard/dist/index.html ]; then
  step "building the dashboard (npm)"
  (cd dashboard && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && npm run build) >/dev/null
fi
cp -a dashboard/dist "$ctx/dashboard"
build_image() { # dockerfile tag [args...]
  local f=$1 tag=$2; shift 2
  docker_ build -q -f "$f" --build-arg "RUNTIME_IMAGE=$BASE" --build-arg BINARIES=prebuilt \
    "$@" -t "$tag" "$ctx" >/dev/null
}
step "images from infra/docker/ with the host's binaries"
build_image infra/docker/control.Dockerfile vitrine-control:swarm-1
build_image infra/docker/edge.Dockerfile vitrine-edge:swarm-1
# The rolling update's new image: the same binary, a new image (another label, so another id).
build_image infra/docker/edge.Dockerfile vitrine-edge:swarm-2 --label org.vitrine.swarm-drill=2
docker_ image ls --format '  {{.Repository}}:{{.Tag}} {{.Size}}' | grep -E 'vitrine-(control|edge):swarm' || true

# ---- teardown ------------------------------------------------------------------------------
remove_volumes() { # the run's stack volumes (PostgreSQL's data among them) on this node
  for _ in $(seq 30); do
    docker_ ps -aq --filter "label=com.docker.stack.namespace=$STACK" | while read -r c; do docker_ rm -f -v "$c" >/dev/null 2>&1 || true; done
    docker_ volume ls -q --filter "label=com.docker.stack.namespace=$STACK" | while read -r v; do docker_ volume rm "$v" >/dev/null 2>&1 || true; done
    [ -z "$(docker_ volume ls -q --filter "label=com.docker.stack.namespace=$STACK")" ] && return 0
    sleep 1
  done
}
pids=()
teardown() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  if [ -n "${SWARM_KEEP:-}" ]; then
    echo "SWARM_KEEP: the swarm stays up (docker stack rm $STACK; docker swarm leave --force;"
    echo "  docker rm -f -v ${WORKERS[*]/#/vitrine-swarm-} $PROBE; docker network rm $NODES_NET)"
    return
  fi
  step "teardown"
  docker_ rm -f "$PROBE" >/dev/null 2>&1 || true
  docker_ stack rm "$STACK" >/dev/null 2>&1 || true
  for _ in $(seq 60); do # the stack's containers on this node stop (edges drain for up to 10 s)
    [ -z "$(docker_ ps -aq --filter "label=com.docker.stack.namespace=$STACK")" ] && break
    sleep 1
  done
  for w in "${WORKERS[@]}"; do docker_ rm -f -v "vitrine-swarm-$w" >/dev/null 2>&1 || true; done
  if [ "$(docker_ info -f '{{.Swarm.LocalNodeState}}')" = active ]; then
    docker_ swarm leave --force >/dev/null 2>&1 || true
  fi
  docker_ ps -aq --filter "label=com.docker.stack.namespace=$STACK" | while read -r c; do docker_ rm -f -v "$c" >/dev/null 2>&1 || true; done
  remove_volumes
  docker_ network rm "$NODES_NET" docker_gwbridge >/dev/null 2>&1 || true
  docker_ image rm vitrine-control:swarm-1 vitrine-edge:swarm-1 vitrine-edge:swarm-2 >/dev/null 2>&1 || true
}
trap teardown EXIT

# ---- the nodes -----------------------------------------------------------------------------
if [ "$(docker_ info -f '{{.Swarm.LocalNodeState}}')" != inactive ]; then
  echo "this host is already in a swarm; leave it first (docker swarm leave --force)" >&2
  exit 1
fi
remove_volumes # a previous run's, had it been stopped before its teardown
step "nodes: this host as the manager, ${WORKERS[*]} as Docker-in-Docker workers"
docker_ network rm "$NODES_NET" >/dev/null 2>&1 || true
docker_ network create --subnet 172.31.240.0/24 --gateway "$HOST_IP" "$NODES_NET" >/dev/null
docker_ swarm init --advertise-addr "$HOST_IP" >/dev/null
token=$(docker_ swarm join-token -q worker)
manager=$(docker_ info -f '{{.Swarm.NodeID}}')
docker_ node update --label-add vitrine.data=true --label-add vitrine.lb=true "$manager" >/dev/null
wk() { local w=$1; shift; docker_ exec "vitrine-swarm-$w" docker "$@"; }
for w in "${WORKERS[@]}"; do
  docker_ rm -f -v "vitrine-swarm-$w" >/dev/null 2>&1 || true
  # Not --privileged: the machine withholds CAP_SYS_RESOURCE, which --privileged asks for.
  docker_ run -d --name "vitrine-swarm-$w" --hostname "$w" --network "$NODES_NET" \
    --cap-add ALL --cap-drop SYS_RESOURCE \
    --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
    --security-opt systempaths=unconfined \
    -v /sys/fs/cgroup:/sys/fs/cgroup:rw --tmpfs /run \
    "$LOCAL/swarm-node" dockerd --storage-driver=overlay2 >/dev/null
  for _ in $(seq 60); do wk "$w" info >/dev/null 2>&1 && break; sleep 0.5; done
  # No registry: the edge images go to the worker's engine directly.
  docker_ save vitrine-edge:swarm-1 vitrine-edge:swarm-2 | docker_ exec -i "vitrine-swarm-$w" docker load >/dev/null
  wk "$w" swarm join --token "$token" "$HOST_IP:2377" >/dev/null
  docker_ node update --label-add vitrine.edge=true "$w" >/dev/null
done
docker_ node ls --format '  {{.Hostname}} {{.Status}} {{.Availability}} {{.ManagerStatus}}'

# ---- ACME (Pebble) and DNS (dnsmasq) on the host ------------------------------------------
pki=$STATE/pki
rm -rf "$pki" && mkdir -p "$pki"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 \
  -subj "/CN=Vitrine swarm run: root for Pebble" -keyout "$pki/ca.key" -out "$STATE/acme-ca.pem" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$HOST_IP" \
  -keyout "$pki/pebble.key" -out "$pki/pebble.csr" 2>/dev/null
openssl x509 -req -in "$pki/pebble.csr" -CA "$STATE/acme-ca.pem" -CAkey "$pki/ca.key" -CAcreateserial \
  -days 2 -extfile <(printf 'subjectAltName=IP:%s' "$HOST_IP") -out "$pki/pebble.pem" 2>/dev/null
jq -n --arg l "$HOST_IP:14000" --arg m "$HOST_IP:15000" --arg c "$pki/pebble.pem" --arg k "$pki/pebble.key" \
  '{pebble: {listenAddress: $l, managementListenAddress: $m, certificate: $c, privateKey: $k,
    httpPort: 80, tlsPort: 5001, ocspResponderURL: "", externalAccountBindingRequired: false}}' > "$pki/pebble.json"
PEBBLE_VA_NOSLEEP=1 PEBBLE_WFE_NONCEREJECT=0 PEBBLE_AUTHZREUSE=0 \
  pebble -config "$pki/pebble.json" -dnsserver "$HOST_IP:10053" -strict=false > "$STATE/pebble.log" 2>&1 &
pids+=($!)

# ---- the stack -----------------------------------------------------------------------------
# The run's settings: the stack's vitrine.toml with this machine's names (the dashboard on
# localhost, the ACME server and DNS above) and form rate limits raised, since every test
# submission comes from this one host.
cat > "$STATE/vitrine.toml" <<EOF
object_store_url = "s3://vitrine-sites"
platform_domain = "localhost"
public_url = "http://localhost:8000"
public_ip = "$HOST_IP"
preview_url_template = "http://{slug}.localhost"
acme_directory_url = "https://$HOST_IP:14000/dir"
acme_ca_bundle = "/etc/vitrine/acme-ca.pem"
acme_contact = "ops@swarm.test"
dns_nameservers = "$HOST_IP:10053"
mail_from = "Vitrine <no-reply@swarm.test>"
log_format = "json"
edge_region = "swarm"
edge_heartbeat_secs = 5
edge_trusted_proxies = "10.77.0.0/16"
control_trusted_proxies = "10.77.0.0/16"
edge_form_rate_per_minute = 100000
edge_form_site_rate_per_minute = 100000
EOF
pgpass=$(openssl rand -hex 16)
s3secret=$(openssl rand -hex 16)
printf %s "$pgpass" | docker_ secret create postgres-password - >/dev/null
printf vitrine | docker_ secret create s3-access-key - >/dev/null
printf %s "$s3secret" | docker_ secret create s3-secret-key - >/dev/null
printf 'VITRINE_DATABASE_URL=postgres://vitrine:%s@postgres:5432/vitrine\nAWS_ACCESS_KEY_ID=vitrine\nAWS_SECRET_ACCESS_KEY=%s\n' \
  "$pgpass" "$s3secret" | docker_ secret create vitrine-env - >/dev/null
step "docker stack deploy (infra/swarm/stack.yaml with infra/swarm/standins.yaml)"
deploy_env=(env SWARM_STATE="$STATE" POSTGRES_IMAGE="$LOCAL/postgres:15" S3_IMAGE="$LOCAL/s3"
  S3_COMMAND="/opt/moto/bin/moto_server -H 0.0.0.0 -p 9000" S3_HEALTHCHECK="curl -fsS -o /dev/null http://127.0.0.1:9000/"
  LB_IMAGE="$LOCAL/nginx" PROMETHEUS_IMAGE="$LOCAL/prometheus" CONTROL_IMAGE=vitrine-control:swarm-1
  EDGE_IMAGE=vitrine-edge:swarm-1 EDGE_REPLICAS=$EDGES CONTROL_REPLICAS=1)
as_root "${deploy_env[@]}" "$DOCKER" stack deploy --resolve-image never \
  -c infra/swarm/stack.yaml -c infra/swarm/standins.yaml "$STACK" | sed 's/^/  /'

# The probe: a container on the stack's overlay network, where Docker's DNS names every task.
docker_ rm -f "$PROBE" >/dev/null 2>&1 || true
docker_ run -d --name "$PROBE" --network "$OVERLAY" -v "$ROOT/infra/swarm:/probe:ro" \
  --entrypoint sleep "$LOCAL/s3" infinity >/dev/null
probe() { docker_ exec "$PROBE" python3 /probe/probe.py "$@"; }
# The bucket (a real deployment makes it beforehand, versioned, as infra/compose.yaml does).
for _ in $(seq 120); do
  docker_ exec "$PROBE" curl -fsS -o /dev/null -X PUT http://s3:9000/vitrine-sites 2>/dev/null && break
  sleep 1
done

running_edges() { # "node node ..." of the edge tasks that are running (healthy)
  docker_ service ps "${STACK}_edge" --filter desired-state=running \
    --format '{{.CurrentState}} {{.Node}}' 2>/dev/null | awk '$1 == "Running" {print $NF}' | sort | tr '\n' ' '
}
converged() { # every edge task running and healthy, no other task of the service starting
  local n
  n=$(running_edges | wc -w)
  [ "$n" -eq "$EDGES" ] && [ "$(docker_ service ps "${STACK}_edge" --filter desired-state=running -q | wc -l)" -eq "$EDGES" ]
}
wait_converged() { # seconds -> prints the ms it took
  local t0 end
  t0=$(now_ms); end=$(( t0 + $1 * 1000 ))
  while [ "$(now_ms)" -lt "$end" ]; do
    converged && { echo $(( $(now_ms) - t0 )); return 0; }
    sleep 0.25
  done
  echo never; return 1
}
# Swarm does not move running tasks back by itself. A forced update respreads them; stop-first
# (each task stops before its replacement is placed, so the spread preference sees the node it
# left), since a start-first one would place both replacements on the emptier node. Then back to
# the stack's own update settings.
respread() {
  docker_ service update --detach=false --quiet --force --update-order stop-first --update-delay 2s \
    --update-monitor 2s "${STACK}_edge" >/dev/null 2>&1 || true
  wait_converged 120 >/dev/null || true
  docker_ service update --detach=false --quiet --update-order start-first --update-delay 5s \
    --update-monitor 10s "${STACK}_edge" >/dev/null 2>&1 || true
}
CP=http://127.0.0.1:8000
LB=http://127.0.0.1
step "waiting for the stack"
t0=$(now_ms)
for _ in $(seq 240); do
  converged && curl -fsS -o /dev/null "$CP/" 2>/dev/null && break
  sleep 1
done
if converged && curl -fsS "$CP/" | grep -q '<div id="root"'; then
  echo "  up in $(( ($(now_ms) - t0) / 1000 )) s; edge tasks on: $(running_edges)"
else
  docker_ service ls
  docker_ service ps --no-trunc "${STACK}_edge" "${STACK}_control" | head -20
  docker_ service logs --tail 20 "${STACK}_control" 2>&1 | tail -20
  echo "the stack did not come up" >&2; exit 1
fi
docker_ service ls --format '  {{.Name}} {{.Mode}} {{.Replicas}}'

# ---- a site ----------------------------------------------------------------------------------
new_site Swarm
token=$(jq -r .domain_token <<<"$project_json")
set_page() { # marker
  api POST "/api/page/$home" "$(jq -nc --arg m "$1" \
    '{blocks:[{uid:"conteudo",name:"Conteúdo",template:("<h1>" + $m + "</h1>"),css:"",js:""}]}')" >/dev/null
}
summary() { # load-result.json -> "N requests, F failed, p50/p99/max"
  jq -r '"\(.requests) requests, \(.failed) failed (\(.codes | to_entries | map("\(.key)×\(.value)") | join(", "))), p50 \(.p50_ms) ms, p99 \(.p99_ms) ms, max \(.max_ms) ms"' "$1"
}
start_load() { # name mode [threads] -> sets loader pid; stop with stop_load name
  rm -f "$STATE/$1.stop" "$STATE/$1.json"
  python3 infra/swarm/load.py "$2" "$host" "$LB/" "$STATE/$1.stop" "$STATE/$1.json" "${3:-4}" "$1" &
  loader=$!
}
stop_load() { touch "$STATE/$1.stop"; wait "$loader" || true; }

check_refs() { # load name: sets missing and twice, from $STATE/history.json
  # Each entry's fields are an HTML list: <dt>ref</dt><dd>NAME-N</dd>.
  jq -r '.history.data[].data' "$STATE/history.json" | grep -o "<dt>ref</dt><dd>$1-[0-9]*</dd>" \
    | sed 's/.*<dd>\(.*\)<\/dd>/\1/' | sort > "$STATE/refs-stored" || true
  jq -r '.refs[]' "$STATE/$1.json" | sort > "$STATE/refs-sent"
  missing=$(comm -23 "$STATE/refs-sent" "$STATE/refs-stored" | wc -l)
  twice=$(uniq -d "$STATE/refs-stored" | wc -l)
}

# 1. ---------------------------------------------------------------------------------------------
step "1. a publish is visible on every edge within 1 s"
marker="swarm-$(date +%s%N)"
set_page "$marker"
probe watch "$host" "$marker" 10 > "$STATE/seen.json" &
watcher=$!
sleep 0.5 # the watcher has resolved the edges and is polling
publish=$(api POST "/api/publish_v2/$project" "{\"project_id\":$project}")
published_at=$(now_ms)
wait $watcher || true
if [ -z "$(jq -r '.deploy.id // empty' <<<"$publish" 2>/dev/null)" ]; then
  fail "1. publish: the API answered $publish"
else
  edges_seen=$(jq -r --argjson t "$published_at" \
    'to_entries | map("\(.key) \(if .value == null then "never" else (.value - $t | tostring) + " ms" end)") | join(", ")' "$STATE/seen.json")
  worst=$(jq -r --argjson t "$published_at" '[.[] | if . == null then 1e9 else . - $t end] | max' "$STATE/seen.json")
  count=$(jq 'length' "$STATE/seen.json")
  if [ "$count" -eq "$EDGES" ] && [ "$worst" -le 1000 ]; then
    pass "1. publish visible on all $count edge tasks within ${worst} ms of the publish call's answer ($edges_seen)"
  else
    fail "1. publish on the edge tasks: $edges_seen (expected $EDGES tasks within 1000 ms)"
  fi
fi
curl -fsS -H "Host: $host" "$LB/" | grep -q "$marker" || fail "1. the page through the load balancer"

# 6. ---------------------------------------------------------------------------------------------
step "6. Prometheus scrapes every task"
want=$( { probe tasks edge | sed 's/$/:9090/'; probe tasks control | sed 's/$/:9091/'; } | sort | tr '\n' ' ')
got=
for _ in $(seq 60); do
  got=$(prom_up)
  [ "$got " = "$want" ] && break
  sleep 1
done
rules=$(prom_rules)
if [ "$got " = "$want" ] && [ "$(wc -w <<<"$want")" -eq $((EDGES + 1)) ]; then
  pass "6. Prometheus scrapes every task, found through Docker's DNS: $got ($rules alert rules loaded)"
else
  fail "6. Prometheus targets up: '$got'; the tasks: '$want'"
fi

# 5. ---------------------------------------------------------------------------------------------
step "5. a custom domain's certificate, ordered once for the fleet"
dnsmasq -k --conf-file=/dev/null --no-resolv --no-hosts --bind-interfaces --listen-address="$HOST_IP" \
  --port=10053 --address="/$DOMAIN/$HOST_IP" --txt-record="_vitrine-challenge.$DOMAIN,$token" \
  --log-facility="$STATE/dnsmasq.log" &
pids+=($!)
sleep 0.5
verify=$(curl -sS -b "$jar" -o /dev/null -w '%{http_code}' -H 'content-type: application/json' -H 'accept: application/json' \
  --data "{\"project_id\":$project,\"domain\":\"$DOMAIN\"}" "$CP/api/dns-verify")
curl -fsS "https://$HOST_IP:15000/roots/0" --cacert "$STATE/acme-ca.pem" > "$STATE/pebble-root.pem" || true
# Many visitors at once, through the load balancer, which spreads the TLS connections over the
# edges: each edge that gets one needs the certificate.
t0=$(now_ms)
rm -f "$STATE"/tls-*
visits=()
for n in $(seq 8); do
  curl -sS -m 90 -o /dev/null -w '%{http_code}\n' --cacert "$STATE/pebble-root.pem" \
    --resolve "$DOMAIN:443:127.0.0.1" "https://$DOMAIN/" > "$STATE/tls-$n" 2>&1 &
  visits+=($!)
done
for p in "${visits[@]}"; do wait "$p" || true; done
wait_tls=$(( $(now_ms) - t0 ))
ok_tls=$(cat "$STATE"/tls-* | grep -c '^200$' || true)
serials=()
for ip in $(probe tasks edge); do
  serials+=("$ip=$(docker_ exec "$PROBE" sh -c "openssl s_client -connect $ip:8443 -servername $DOMAIN </dev/null 2>/dev/null | openssl x509 -noout -serial" | cut -d= -f2)")
done
distinct=$(printf '%s\n' "${serials[@]}" | cut -d= -f2 | sort -u | grep -c . || true)
orders=$(grep -c 'POST /order-plz' "$STATE/pebble.log" || true)
issued=$(grep -ci 'issued certificate' "$STATE/pebble.log" || true)
if [ "$verify" = 200 ] && [ "$ok_tls" = 8 ] && [ "$distinct" = 1 ] && [ "$orders" = 1 ]; then
  pass "5. $DOMAIN verified (DNS TXT proof + A record); 8 concurrent HTTPS visits through the load balancer all 200 within $wait_tls ms; Pebble saw $orders order ($issued certificate issued); every edge task serves serial ${serials[0]#*=} (${serials[*]})"
else
  fail "5. certificate: dns-verify $verify, HTTPS 200s $ok_tls/8 ($(cat "$STATE"/tls-* | sort | uniq -c | tr '\n' ' ')), Pebble orders $orders, issued $issued, serials per edge: ${serials[*]}"
  tail -5 "$STATE/pebble.log" | sed 's/^/      pebble: /'
fi

# 2. ---------------------------------------------------------------------------------------------
step "2. draining ${WORKERS[0]} under load"
before=$(running_edges)
start_load drain get 4
sleep 2
t0=$(now_ms)
docker_ node update --availability drain "${WORKERS[0]}" >/dev/null
took=never
for _ in $(seq 240); do
  r=$(running_edges)
  if converged && ! grep -qw "${WORKERS[0]}" <<<"$r"; then took=$(( $(now_ms) - t0 )); break; fi
  sleep 0.25
done
sleep 3
stop_load drain
after=$(running_edges)
failed=$(jq .failed "$STATE/drain.json")
if [ "$took" != never ] && [ "$failed" = 0 ]; then
  pass "2. drain: edges on [$before] -> [$after] in $took ms; $(summary "$STATE/drain.json")"
else
  fail "2. drain: edges [$before] -> [$after], reconverged: $took ms; $(summary "$STATE/drain.json")"
fi
docker_ node update --availability active "${WORKERS[0]}" >/dev/null
respread
note "after re-activating ${WORKERS[0]} and a forced stop-first update, edges on: $(running_edges)"

# 4. ---------------------------------------------------------------------------------------------
step "4. rolling update of the edge image under load"
before=$(docker_ service inspect -f '{{.Spec.TaskTemplate.ContainerSpec.Image}}' "${STACK}_edge")
start_load roll get 4
sleep 2
t0=$(now_ms)
docker_ service update --detach --quiet --no-resolve-image --image vitrine-edge:swarm-2 "${STACK}_edge" >/dev/null
state=
for _ in $(seq 480); do # each task: start, healthy, 10 s of monitoring, 5 s delay
  state=$(docker_ service inspect -f '{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}' "${STACK}_edge")
  case $state in completed | paused | rollback_*) break ;; esac
  sleep 0.25
done
took_all=$(( $(now_ms) - t0 ))
sleep 2
stop_load roll
image=$(docker_ service inspect -f '{{.Spec.TaskTemplate.ContainerSpec.Image}}' "${STACK}_edge")
state=$(docker_ service inspect -f '{{if .UpdateStatus}}{{.UpdateStatus.State}}{{end}}' "${STACK}_edge")
failed=$(jq .failed "$STATE/roll.json")
if [ "$image" = vitrine-edge:swarm-2 ] && [ "$state" = completed ] && [ "$failed" = 0 ]; then
  pass "4. rolling update $before -> $image (start-first, one task at a time): completed in $took_all ms; $(summary "$STATE/roll.json")"
else
  fail "4. rolling update to $image: update state '$state', $took_all ms; $(summary "$STATE/roll.json")"
fi
sleep 3 # a load balancer's cached DNS answer (1 s) has expired

# 3. ---------------------------------------------------------------------------------------------
[ "$(running_edges | tr ' ' '\n' | sort -u | grep -c .)" -ge 2 ] || respread
victim=${WORKERS[1]}
step "3. $victim stopped abruptly under load (SIGKILL of the node: its engine and every container)"
before=$(running_edges)
history_total() {
  api GET "/api/projects/$project/form-history?limit=-1" > "$STATE/history.json"
  jq -r '.history.total // empty' "$STATE/history.json" 2>/dev/null || true
}
hist0=$(history_total)
start_load kill get 3
get_loader=$loader
start_load forms form 2
form_loader=$loader
sleep 3
t0=$(now_ms)
docker_ kill -s KILL "vitrine-swarm-$victim" >/dev/null
down=never
took=never
for _ in $(seq 480); do
  [ "$down" = never ] && [ "$(docker_ node inspect -f '{{.Status.State}}' "$victim")" = down ] && down=$(( $(now_ms) - t0 ))
  r=$(running_edges)
  if converged && ! grep -qw "$victim" <<<"$r"; then took=$(( $(now_ms) - t0 )); break; fi
  sleep 0.25
done
sleep 5
touch "$STATE/kill.stop" "$STATE/forms.stop"
wait "$get_loader" || true
wait "$form_loader" || true
after=$(running_edges)
acked=$(jq '.refs | length' "$STATE/forms.json")
retried=$(jq .retried "$STATE/forms.json")
hist1=
for _ in $(seq 60); do
  hist1=$(history_total)
  [ "${hist1:-0}" -ge $((hist0 + acked)) ] 2>/dev/null && break
  sleep 1
done
check_refs forms
gets_failed=$(jq .failed "$STATE/kill.json")
if [ "$took" != never ] && [ "$gets_failed" = 0 ] && [ "$missing" = 0 ] && [ "$acked" -gt 0 ]; then
  pass "3. $victim killed: marked down after $down ms, edges [$before] -> [$after] after $took ms; page loads: $(summary "$STATE/kill.json"); form posts: $acked acknowledged, all $acked in the form history ($((hist1 - hist0)) new entries, $twice stored twice), $retried attempts failed and were sent again by the client ($(summary "$STATE/forms.json"))"
else
  fail "3. $victim killed: down after $down ms, reconverged after $took ms, edges [$before] -> [$after]; page loads: $(summary "$STATE/kill.json"); forms: $acked acknowledged, $missing missing from the history, $twice stored twice ($((${hist1:-0} - hist0)) new entries), $retried retried ($(summary "$STATE/forms.json"))"
fi
# The node comes back: its engine restarts and rejoins; the spool of the tasks it ran stays on
# its `spool` volume for the next edge task there.
docker_ start "vitrine-swarm-$victim" >/dev/null
back=never
t0=$(now_ms)
for _ in $(seq 120); do
  [ "$(docker_ node inspect -f '{{.Status.State}}' "$victim")" = ready ] && { back=$(( $(now_ms) - t0 )); break; }
  sleep 0.5
done
note "$victim restarted: ready again after $back ms"

# 3b. ----------------------------------------------------------------------------------------
step "3b. PostgreSQL down, then $victim stopped abruptly: the spools replay every post"
respread
before=$(running_edges)
# The edges just restarted: each loads the site (and its form) while the database is there,
# as edges that have been serving have; an edge cannot load a site it never saw without it.
probe watch "$host" "$marker" 20 > "$STATE/warm.json" || true
curl -s -o /dev/null -H "Host: $host" -H 'accept: application/json' --data "nome=Aquecimento&ref=warm-0" "$LB/_forms" || true
hist0=$(history_total)
docker_ service scale --detach "${STACK}_postgres=0" >/dev/null
for _ in $(seq 60); do
  [ -z "$(docker_ ps -q --filter "label=com.docker.swarm.service.name=${STACK}_postgres")" ] && break
  sleep 0.5
done
start_load spool form 2
sleep 5 # posts are spooled on both edges
docker_ kill -s KILL "vitrine-swarm-$victim" >/dev/null
sleep 5
stop_load spool
acked=$(jq '.refs | length' "$STATE/spool.json")
served=$(curl -s -o /dev/null -w '%{http_code}' -m 10 -H "Host: $host" "$LB/" || true)
docker_ start "vitrine-swarm-$victim" >/dev/null
for _ in $(seq 120); do
  [ "$(docker_ node inspect -f '{{.Status.State}}' "$victim")" = ready ] && break
  sleep 0.5
done
t0=$(now_ms)
docker_ service scale --detach "${STACK}_postgres=1" >/dev/null
# An edge task on the returned node claims the spool its killed task left there, and replays it.
wait_converged 180 >/dev/null || true
respread
replayed=never
for _ in $(seq 120); do
  hist1=$(history_total)
  if [ -n "$hist1" ]; then
    check_refs spool
    [ "$missing" = 0 ] && { replayed=$(( $(now_ms) - t0 )); break; }
  fi
  sleep 1
done
if [ "$replayed" != never ] && [ "$acked" -gt 0 ] && [ "$served" = 200 ]; then
  pass "3b. PostgreSQL down, $victim killed: $acked form posts acknowledged (spooled; $(summary "$STATE/spool.json")); the site served (200) on the surviving node; every one of them in the form history $replayed ms after PostgreSQL was started again ($((hist1 - hist0)) new entries, $twice stored twice), the killed node's spool replayed by the edge task that started on it (edges [$before] -> [$(running_edges)])"
else
  fail "3b. PostgreSQL down, $victim killed: $acked acknowledged ($(summary "$STATE/spool.json")), page answered $served, $missing not in the form history after 120 s (${hist1:-?} entries in all), edges on [$(running_edges)]"
fi

echo
echo "== results"
printf '%s\n' "${results[@]}" | sort -s -k2,2
echo
if [ "$fails" = 0 ]; then echo "swarm run: PASS"; else echo "swarm run: $fails FAILED"; exit 1; fi
