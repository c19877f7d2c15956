#!/usr/bin/env bash
# Lighthouse on every page of every seeded template as published (issue 44): the end-to-end
# suite's real control plane and edge (dashboard/e2e/global-setup.ts), a site made from each
# template under an owner's own name and published, and Lighthouse 12.2.3 (mobile, simulated
# slow 4G, Debian's Chromium) on every URL of the site's /sitemap.xml. The test command audits
# one page per template with the same budgets (dashboard/e2e/lighthouse.e2e.ts); this runs them
# all, and a gallery of twelve 4000×3000 phone photos uploaded by an owner (budget: 95 in
# Performance), and writes the scores as a Markdown table, for benches/README.md ("Lighthouse").
#
#   bash benches/lighthouse.sh [TABLE]     (TABLE: where the table goes; default
#                                          target/lighthouse-scores.md)
#
# Builds the servers (debug, as the test command does) and the dashboard first.
set -euo pipefail
cd "$(dirname "$0")/.."
table="$(realpath -m "${1:-target/lighthouse-scores.md}")"
cargo build --quiet -p vitrine-control-plane -p vitrine-edge --bins
cd dashboard
[ -d node_modules ] || npm ci --no-audit --no-fund
npm run build --silent
LIGHTHOUSE_EVERY_PAGE=1 LIGHTHOUSE_TABLE="$table" \
  npx vitest run --config vitest.e2e.config.ts e2e/lighthouse.e2e.ts || status=$?
[ -f "$table" ] && cat "$table"
exit "${status:-0}"
