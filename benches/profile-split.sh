#!/usr/bin/env bash
# Where a server's CPU goes under load, in buckets: the kernel (TCP, syscalls), TLS record work
# (the AEAD and GHASH code of ring or OpenSSL's libcrypto, rustls or libssl), HTTP/2 framing
# (the h2 crate), hyper, the edge's own code, the allocator, and the rest.
#
#   bash benches/profile-split.sh PIDS SECS -- LOAD COMMAND...
#
# Samples PIDS (space-separated, in quotes) with `perf record` at 999 Hz while the load command
# runs, then prints each bucket's share of the samples. Run it against the servers
# `EDGE_LOAD_HOLD=1 bash benches/edge-load.sh --https` keeps up.
set -euo pipefail
pids=$1 secs=$2
shift 3
data=$(mktemp)
trap 'rm -f "$data"' EXIT
perf record -q -F 999 -o "$data" -p "${pids// /,}" -- sleep "$secs" 2>/dev/null &
rec=$!
"$@" >/dev/null 2>&1 || true
wait "$rec" || true
perf report -i "$data" --no-children --sort dso,sym --stdio 2>/dev/null |
  awk '
    /^#/ || NF < 3 { next }
    {
      pct = $1; sub(/%/, "", pct)
      line = $0
      if (line ~ /\[kernel/) b = "kernel (TCP, syscalls)"
      else if (line ~ /aes|gcm|ghash|GFp|ChaCha|chacha|poly1305|sha256|sha512|libcrypto|ring_core|ring::aead/) b = "TLS record crypto (AEAD, GHASH)"
      else if (line ~ /rustls|libssl|tokio_rustls/) b = "TLS library (records, state)"
      else if (line ~ /h2::|hpack/) b = "HTTP/2 framing (h2)"
      else if (line ~ /hyper/) b = "hyper (HTTP codec, service)"
      else if (line ~ /vitrine_edge|httparse/) b = "the edge (routing, front, headers)"
      else if (line ~ /mi_|mimalloc|malloc|free|_int_/) b = "allocator"
      else if (line ~ /nginx/) b = "nginx itself"
      else if (line ~ /tokio/) b = "tokio runtime"
      else b = "other (memcpy, libc, unresolved)"
      share[b] += pct
    }
    END { for (b in share) printf "%6.1f %%  %s\n", share[b], b }' | sort -rn
