#!/usr/bin/env bash
# Validates the deployment files under infra/ as far as can be done without running them:
#   - every YAML file parses (all documents) and passes yamllint (relaxed rules); every JSON
#     file parses;
#   - promtool check config (prometheus.yml with its rule file) and promtool check rules;
#   - the systemd units: required keys, and `systemd-analyze verify` when systemd-analyze exists
#     (on copies whose ExecStart binaries are replaced by /bin/true, since the Vitrine binaries
#     are not installed here);
#   - the load balancer's nginx.conf with `nginx -t` (edge hostnames mapped to 127.0.0.1);
#   - every metric name in the Grafana dashboard and the alert rules is one the code registers
#     (edge/src/metrics.rs, control-plane/src/metrics.rs, shared/src/latency.rs, with the
#     Registry::with_prefix prefix and the suffixes Prometheus gives each type: counters
#     `_total`, histograms `_bucket`/`_sum`/`_count`);
#   - every VITRINE_* variable named in infra/ or docs/fleet.md is a real setting (a name in
#     shared/src/config/help.rs SETTINGS_HELP, or VITRINE_CONFIG).
#   - the Kubernetes manifests against the Kubernetes API's schemas (kubernetes-validate from
#     PyPI, in a virtualenv), strictly.
#   - the Docker Swarm stack (infra/swarm/): stack.yaml and standins.yaml, their variables
#     given their defaults, against the compose specification's JSON schema (from Debian's
#     docker-compose); `docker stack config` as well when the docker client has it (Debian's
#     20.10 has not; the line says which ran); the stack's own rules (every service on the
#     overlay with endpoint_mode dnsrr but the load balancer, host-mode ports only, health
#     checks, start-first updates and restart policies, PostgreSQL and the store on their own
#     placement, every config and secret defined and every config file present); its
#     settings (vitrine.toml) the same as infra/k8s/configmap.yaml's; its nginx.conf with
#     `nginx -t` and its prometheus.yml with `promtool check config`.
# Installs promtool (package prometheus), yamllint, nginx and its stream module, docker-compose
# (for the compose schema) and python3-jsonschema with apt-get when missing.
# Not checked here: building and running the images with compose (infra/smoke/run.sh does, with
# Docker), deploying the stack on a swarm (infra/swarm/run.sh does), applying the manifests to
# a cluster. Exits non-zero on any problem.
set -uo pipefail
cd "$(dirname "$0")/.."
# nginx lives in /usr/sbin, which is not on every user's PATH.
export PATH="$PATH:/usr/sbin"
ROOT=$PWD
fail=0
problem() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok:   $*"; }

need_apt=()
command -v promtool >/dev/null || need_apt+=(prometheus)
command -v yamllint >/dev/null || need_apt+=(yamllint)
# The compose specification's JSON schema (for infra/swarm/stack.yaml) ships with Debian's
# docker-compose; python3-jsonschema validates against it.
COMPOSE_SPEC=/usr/lib/python3/dist-packages/compose/config/compose_spec.json
[ -f "$COMPOSE_SPEC" ] || need_apt+=(docker-compose)
python3 -c 'import jsonschema' 2>/dev/null || need_apt+=(python3-jsonschema)
if ! command -v nginx >/dev/null; then
    need_apt+=(nginx-light libnginx-mod-stream)
elif [ ! -e /usr/lib/nginx/modules/ngx_stream_module.so ] \
    && ! nginx -V 2>&1 | grep -q -- '--with-stream '; then
    need_apt+=(libnginx-mod-stream)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
    echo "installing: ${need_apt[*]}"
    if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
    $SUDO apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
        "${need_apt[@]}" >/dev/null 2>&1 || problem "apt-get install ${need_apt[*]}"
fi

# ---- YAML and JSON ---------------------------------------------------------------------
mapfile -t yamls < <(find infra -type f \( -name '*.yaml' -o -name '*.yml' \) | sort)
mapfile -t jsons < <(find infra -type f -name '*.json' | sort)
for f in "${yamls[@]}"; do
    if out=$(python3 -c 'import sys, yaml; list(yaml.safe_load_all(open(sys.argv[1])))' "$f" 2>&1); then
        ok "YAML parses: $f"
    else
        problem "YAML does not parse: $f: $out"
    fi
done
if command -v yamllint >/dev/null; then
    if yamllint -f parsable -d '{extends: relaxed, rules: {line-length: {max: 140}}}' "${yamls[@]}" \
        | grep ':\s*\[error\]'; then
        problem "yamllint errors (above)"
    else
        ok "yamllint (relaxed, errors only): ${#yamls[@]} files"
    fi
else
    problem "yamllint not available"
fi
for f in "${jsons[@]}"; do
    if python3 -m json.tool "$f" >/dev/null 2>&1; then ok "JSON parses: $f"; else problem "JSON does not parse: $f"; fi
done

# ---- Prometheus --------------------------------------------------------------------------
if command -v promtool >/dev/null; then
    promtool check config infra/prometheus/prometheus.yml || problem "promtool check config"
    promtool check rules infra/prometheus/alerts.yml || problem "promtool check rules"
else
    problem "promtool not available"
fi

# ---- systemd units ---------------------------------------------------------------------
for u in infra/systemd/*.service; do
    for key in '^\[Unit\]' '^\[Service\]' '^\[Install\]' '^Description=' '^ExecStart=' '^User=' \
        '^KillSignal=SIGTERM' '^TimeoutStopSec=' '^Restart=' '^WantedBy='; do
        grep -q "$key" "$u" || problem "$u lacks $key"
    done
    # Graceful shutdown: the edge drains for up to 10 s, so the stop timeout must exceed it.
    t=$(sed -n 's/^TimeoutStopSec=\([0-9]*\)$/\1/p' "$u")
    [ -n "$t" ] && [ "$t" -gt 10 ] || problem "$u: TimeoutStopSec must be a number of seconds > 10"
    grep -q 'ExecStartPre=.* migrate$' "$u" || problem "$u: no migrate ExecStartPre"
done
ok "systemd units have their required keys"
if command -v systemd-analyze >/dev/null; then
    tmp=$(mktemp -d)
    for u in infra/systemd/*.service; do
        sed -e 's|/usr/local/bin/vitrine-[a-z]*|/bin/true|' "$u" > "$tmp/$(basename "$u")"
    done
    if out=$(systemd-analyze verify "$tmp"/*.service 2>&1) && [ -z "$out" ]; then
        ok "systemd-analyze verify (binaries stubbed with /bin/true)"
    else
        problem "systemd-analyze verify: $out"
    fi
    rm -rf "$tmp"
else
    echo "note: systemd-analyze is not installed; only the key checks above ran on the units"
fi

# ---- load balancer -------------------------------------------------------------------------
if ! command -v nginx >/dev/null; then
    problem "nginx is not installed: infra/lb/nginx.conf cannot be checked"
else
    tmp=$(mktemp -d)
    mod=
    [ -e /usr/lib/nginx/modules/ngx_stream_module.so ] && mod='load_module /usr/lib/nginx/modules/ngx_stream_module.so;'
    { echo "$mod"; sed -e 's/edge-[ab]:/127.0.0.1:/' infra/lb/nginx.conf; } > "$tmp/nginx.conf"
    if out=$(nginx -t -p "$tmp" -c "$tmp/nginx.conf" -g "pid $tmp/nginx.pid; error_log stderr;" 2>&1); then
        ok "nginx -t infra/lb/nginx.conf (edge names mapped to 127.0.0.1)"
    else
        problem "nginx -t infra/lb/nginx.conf: $out"
    fi
    { echo "$mod"; cat infra/swarm/nginx.conf; } > "$tmp/nginx.conf"
    if out=$(nginx -t -p "$tmp" -c "$tmp/nginx.conf" -g "pid $tmp/nginx.pid; error_log stderr;" 2>&1); then
        ok "nginx -t infra/swarm/nginx.conf"
    else
        problem "nginx -t infra/swarm/nginx.conf: $out"
    fi
    rm -rf "$tmp"
fi

# ---- Kubernetes manifests -------------------------------------------------------------------
# kubernetes-validate (PyPI) carries the Kubernetes API's own OpenAPI schemas for each release,
# so the manifests are checked offline, strictly (an unknown or misspelt field fails), against
# the oldest release we support. The Kustomization is checked for files it names.
K8S_VERSION=1.30.0
kv_dir="${XDG_CACHE_HOME:-$HOME/.cache}/vitrine/kubernetes-validate"
if [ ! -x "$kv_dir/bin/kubernetes-validate" ]; then
    python3 -m venv "$kv_dir" && "$kv_dir/bin/pip" install --quiet 'kubernetes-validate==1.37.0' \
        || problem "pip install kubernetes-validate"
fi
if [ -x "$kv_dir/bin/kubernetes-validate" ]; then
    mapfile -t manifests < <(ls infra/k8s/*.yaml | grep -v kustomization.yaml)
    if out=$("$kv_dir/bin/kubernetes-validate" -k "$K8S_VERSION" --strict --quiet "${manifests[@]}" 2>&1) \
        && ! grep -q . <<<"$out"; then
        ok "kubernetes-validate --strict (Kubernetes $K8S_VERSION schemas): ${#manifests[@]} manifests"
    else
        problem "kubernetes-validate: $out"
    fi
fi
python3 - <<'PY' || problem "infra/k8s/kustomization.yaml names files that do not exist"
import pathlib, sys, yaml
k = yaml.safe_load(open("infra/k8s/kustomization.yaml"))
missing = [r for r in k.get("resources", []) if not (pathlib.Path("infra/k8s") / r).exists()]
print("ok:   kustomization resources exist" if not missing else f"FAIL: missing {missing}")
sys.exit(1 if missing else 0)
PY

# ---- Docker Swarm stack ----------------------------------------------------------------------
if out=$(python3 - "$COMPOSE_SPEC" <<'PY' 2>&1
import json, pathlib, re, sys, tomllib, yaml, jsonschema
spec = json.load(open(sys.argv[1]))
d = pathlib.Path("infra/swarm")
problems = []

def load(path):
    # ${VAR:-default} -> default, ${VAR:?} -> a placeholder, as `docker stack deploy` would with
    # the variable unset (and run.sh's SWARM_STATE set).
    text = re.sub(r"\$\{[A-Z0-9_]+:-([^}]*)\}", r"\1", path.read_text())
    text = re.sub(r"\$\{SWARM_STATE:\?\}", "/tmp/swarm-state", text)
    if "${" in text:
        problems.append(f"{path}: a variable without a default")
    return yaml.safe_load(text)

stack = load(d / "stack.yaml")
for f in ("stack.yaml", "standins.yaml"):
    errs = sorted(jsonschema.Draft7Validator(spec).iter_errors(load(d / f)), key=str)
    problems += [f"{d / f}: {'/'.join(map(str, e.path))}: {e.message}" for e in errs]
svcs = stack["services"]
for name, s in svcs.items():
    dep = s.get("deploy", {})
    if s.get("networks") != ["vitrine"]:
        problems.append(f"{name}: not on the vitrine overlay network alone")
    for p in s.get("ports", []):
        if not isinstance(p, dict) or p.get("mode") != "host":
            problems.append(f"{name}: port {p} is not published in host mode (no routing mesh)")
    if name != "lb" and dep.get("endpoint_mode") != "dnsrr":
        problems.append(f"{name}: endpoint_mode is not dnsrr")
    if name in ("control", "edge"):
        up = dep.get("update_config", {})
        if up.get("order") != "start-first" or up.get("parallelism") != 1:
            problems.append(f"{name}: update_config is not start-first, one at a time")
        if "healthcheck" not in s or "/healthz" not in " ".join(s["healthcheck"]["test"]):
            problems.append(f"{name}: no /healthz health check")
        if s.get("stop_signal") != "SIGTERM":
            problems.append(f"{name}: stop_signal is not SIGTERM")
    if name in ("control", "edge", "postgres", "s3", "lb") and dep.get("restart_policy", {}).get("condition") != "any":
        problems.append(f"{name}: no restart policy (condition: any)")
for name in ("postgres", "s3"):
    if svcs[name]["deploy"]["placement"]["constraints"] != ["node.labels.vitrine.data == true"]:
        problems.append(f"{name}: not placed on the data node (node.labels.vitrine.data)")
if svcs["edge"]["deploy"]["placement"]["constraints"] != ["node.labels.vitrine.edge == true"]:
    problems.append("edge: not placed on the edge nodes")
if "VITRINE_DATABASE_URL" in json.dumps(stack):
    problems.append("stack.yaml: VITRINE_DATABASE_URL belongs in the vitrine-env secret")
for name, s in svcs.items():
    for c in s.get("configs", []):
        if c["source"] not in stack["configs"]:
            problems.append(f"{name}: config {c['source']} is not defined")
    for sec in s.get("secrets", []):
        sec = sec if isinstance(sec, str) else sec["source"]
        if sec not in stack["secrets"]:
            problems.append(f"{name}: secret {sec} is not defined")
for cname, c in stack["configs"].items():
    if not (d / c["file"]).is_file():
        problems.append(f"config {cname}: {d / c['file']} is missing")
# Kubernetes stays true to the same settings: the stack's vitrine.toml and the ConfigMap set
# the same settings to the same values, but the trusted proxy networks (each platform's own).
cm = yaml.safe_load(open("infra/k8s/configmap.yaml"))["data"]
k8s = {k[len("VITRINE_"):].lower(): v for k, v in cm.items() if k.startswith("VITRINE_")}
toml = {k: str(v) for k, v in tomllib.load(open(d / "vitrine.toml", "rb")).items()}
own = {"edge_trusted_proxies", "control_trusted_proxies"}
for k in sorted(set(k8s) | set(toml)):
    if k not in toml or k not in k8s:
        problems.append(f"setting {k}: in {'infra/k8s/configmap.yaml' if k in k8s else 'infra/swarm/vitrine.toml'} only")
    elif k not in own and k8s[k] != toml[k]:
        problems.append(f"setting {k}: {toml[k]!r} in infra/swarm/vitrine.toml, {k8s[k]!r} in infra/k8s/configmap.yaml")
if (aws := cm.get("AWS_DEFAULT_REGION")) != svcs["edge"]["environment"].get("AWS_DEFAULT_REGION"):
    problems.append(f"AWS_DEFAULT_REGION differs from the ConfigMap's {aws!r}")
print("\n".join(problems) if problems else
      f"{len(svcs)} services; {len(toml)} settings, as in infra/k8s/configmap.yaml")
sys.exit(1 if problems else 0)
PY
); then
    ok "infra/swarm/stack.yaml: compose-spec schema (Debian's docker-compose), the stack's rules: $out"
else
    problem "infra/swarm/stack.yaml: $out"
fi
if docker stack config --help >/dev/null 2>&1; then
    tmp=$(mktemp -d)
    touch "$tmp/vitrine.toml" "$tmp/acme-ca.pem"
    if out=$(SWARM_STATE=$tmp docker stack config -c infra/swarm/stack.yaml -c infra/swarm/standins.yaml 2>&1 >/dev/null); then
        ok "docker stack config -c infra/swarm/stack.yaml -c infra/swarm/standins.yaml"
    else
        problem "docker stack config: $out"
    fi
    rm -rf "$tmp"
else
    echo "note: this docker client has no \`docker stack config\` (Debian's 20.10 has none): the schema check above stands for it"
fi
if command -v promtool >/dev/null; then
    tmp=$(mktemp -d)
    cp infra/swarm/prometheus.yml infra/prometheus/alerts.yml "$tmp/"
    promtool check config "$tmp/prometheus.yml" >/dev/null 2>&1 \
        && ok "promtool check config infra/swarm/prometheus.yml (with infra/prometheus/alerts.yml)" \
        || problem "promtool check config infra/swarm/prometheus.yml: $(promtool check config "$tmp/prometheus.yml" 2>&1)"
    rm -rf "$tmp"
fi

# ---- metric names and settings ---------------------------------------------------------------
python3 - "$ROOT" <<'EOF' || fail=1
import json, re, sys, pathlib
root = pathlib.Path(sys.argv[1])
bad = False

# Registered metrics: name -> kind, with each file's Registry::with_prefix.
known = {}
for rel in ["edge/src/metrics.rs", "control-plane/src/metrics.rs", "shared/src/latency.rs"]:
    src = (root / rel).read_text()
    prefixes = re.findall(r'Registry::with_prefix\("([a-z0-9_]+)"\)', src)
    prefix = prefixes[0] + "_" if prefixes else ""
    for name, arg in re.findall(r'register\(\s*"([a-z0-9_]+)",\s*"[^"]*",\s*([A-Za-z_][A-Za-z0-9_.:()]*)', src):
        ident = arg.split(".")[0]
        decl = re.search(r'let\s+(?:mut\s+)?' + re.escape(ident) + r'\s*=\s*([^;]*);', src)
        text = decl.group(1) if decl else ""
        if "Latency" in text:
            kind = "histogram"
        elif "Counter" in text:
            kind = "counter"
        elif "Gauge" in text:
            kind = "gauge"
        else:
            print(f"FAIL: cannot tell the type of {name} in {rel}")
            bad = True
            continue
        known[prefix + name] = kind
allowed = set()
for name, kind in known.items():
    if kind == "counter":
        allowed.add(name + "_total")
    elif kind == "histogram":
        allowed.update(name + s for s in ("_bucket", "_sum", "_count"))
    else:
        allowed.add(name)
print(f"ok:   {len(known)} metrics registered in the code: " + ", ".join(sorted(known)))

pattern = re.compile(r'\b(vitrine_(?:edge|control)_[a-z0-9_]+)')
exprs = {}
dash = json.loads((root / "infra/grafana/vitrine-fleet.json").read_text())
def walk(node):
    if isinstance(node, dict):
        for k, v in node.items():
            if k in ("expr", "query", "definition") and isinstance(v, str):
                yield v
            else:
                yield from walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from walk(v)
exprs["infra/grafana/vitrine-fleet.json"] = list(walk(dash))
import yaml
rules = yaml.safe_load((root / "infra/prometheus/alerts.yml").read_text())
exprs["infra/prometheus/alerts.yml"] = [r["expr"] for g in rules["groups"] for r in g["rules"]]
for f, items in exprs.items():
    used = sorted({m for e in items for m in pattern.findall(e)})
    missing = [m for m in used if m not in allowed]
    for m in missing:
        print(f"FAIL: {f} uses {m}, which the code does not export")
        bad = True
    if not missing:
        print(f"ok:   {f}: {len(used)} metric names, all exported by the code")

# Settings: SETTINGS_HELP names (+ VITRINE_CONFIG, the --config flag's variable).
cfg = (root / "shared/src/config/help.rs").read_text()
block = cfg[cfg.index("pub const SETTINGS_HELP"):]
block = block[:block.index("\n];")]
settings = set(re.findall(r'\(\s*"([A-Z0-9_]+)",', block)) | {"CONFIG"}
files = [p for p in (root / "infra").rglob("*") if p.is_file()] + [root / "docs/fleet.md"]
for p in files:
    if not p.exists():
        print(f"FAIL: {p.relative_to(root)} is missing")
        bad = True
        continue
    text = p.read_text(errors="replace")
    for var in sorted(set(re.findall(r'\bVITRINE_([A-Z0-9_]+)\b', text))):
        if var not in settings:
            print(f"FAIL: {p.relative_to(root)} names VITRINE_{var}, which is not a setting")
            bad = True
print(f"ok:   VITRINE_* names checked in {len(files)} files against {len(settings)} settings")
sys.exit(1 if bad else 0)
EOF

if [ "$fail" -ne 0 ]; then
    echo "infra/check.sh: problems found"
    exit 1
fi
echo "infra/check.sh: all checks passed"
