#!/usr/bin/env bash
# Lists the slowest tests of the last `cargo nextest run` (its JUnit report, which
# .config/nextest.toml asks for), and what all of them took together: where the test run's
# time goes. Usage: bash scripts/test-times.sh [how many, default 30]
set -euo pipefail
cd "$(dirname "$0")/.."
report=target/nextest/default/junit.xml
[ -f "$report" ] || { echo "no $report: run the tests first" >&2; exit 1; }
python3 - "$report" "${1:-30}" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = [(float(c.get("time", 0)), c.get("classname", ""), c.get("name", ""))
         for c in ET.parse(sys.argv[1]).iter("testcase")]
cases.sort(reverse=True)
total = sum(t for t, _, _ in cases)
print(f"{len(cases)} tests, {total:.0f} s of test time in all")
for t, cls, name in cases[: int(sys.argv[2])]:
    print(f"{t:8.1f} s  {t / total:5.1%}  {cls} {name}")
PY
