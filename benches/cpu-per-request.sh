#!/usr/bin/env bash
# CPU time per request, split into the server's user and system time and wrk's, for one wrk
# run against a server already listening (for instance the servers `EDGE_LOAD_HOLD=1 bash
# benches/edge-load.sh` keeps up; it prints their pids, addresses and wrk script).
#
#   bash benches/cpu-per-request.sh "PIDS" ADDR PATH WRK_SCRIPT [SECS]
#
# PIDS: the server's processes (for nginx, its workers: `pgrep -P <master pid>`). Reads their
# utime/stime from /proc before and after, and wrk's from /usr/bin/time.
set -euo pipefail
if [ ! -x /usr/bin/time ] || ! command -v wrk >/dev/null; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get update -qq && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time wrk >/dev/null
fi
pids=$1 addr=$2 path=$3 script=$4 secs=${5:-6}
tick=$(getconf CLK_TCK)
ticks() {
  local u=0 s=0 f
  for p in $pids; do
    read -r -a f < "/proc/$p/stat"
    u=$((u + f[13])) s=$((s + f[14]))
  done
  echo "$u $s"
}
read -r u0 s0 < <(ticks)
out=$({ /usr/bin/time -f 'WRKCPU %U %S' wrk -t2 -c64 -d"${secs}s" --latency -s "$script" "http://$addr$path"; } 2>&1)
read -r u1 s1 < <(ticks)
rps=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
p99=$(awk '$1 == "99%" {print $2}' <<<"$out")
read -r _ wu ws < <(grep WRKCPU <<<"$out")
awk -v rps="$rps" -v secs="$secs" -v tick="$tick" -v su=$((u1 - u0)) -v ss=$((s1 - s0)) \
    -v wu="$wu" -v ws="$ws" -v p99="$p99" 'BEGIN {
  n = rps * secs; us = 1e6 / n
  printf "%.0f requests/s, p99 %s; CPU per request: server user %.2f us, sys %.2f us; wrk user %.2f us, sys %.2f us; total %.2f us\n",
    rps, p99, su / tick * us, ss / tick * us, wu * us, ws * us, (su / tick + ss / tick + wu + ws) * us
}'
