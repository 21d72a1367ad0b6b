#!/bin/sh
# test.sh - build xiri out of tree in build/ and run the whole test suite
# (make check); prints the CUnit summary and each test log's last lines.
set -e
cd "$(dirname "$0")/.."
[ -x configure ] || ./autogen.sh >/dev/null
mkdir -p build
cd build
[ -f Makefile ] || ../configure -q --enable-werror
make -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
status=0
make -j"$(nproc 2>/dev/null || echo 2)" check >check.log 2>&1 || status=$?
for log in tests/unit/unit.log tests/cli/run.sh.log tests/fuzz/replay.sh.log; do
    [ -f "$log" ] || continue
    echo "--- $log"
    if grep -q 'Run Summary' "$log"; then
        sed -n '/Run Summary/,$p' "$log" | grep -v '^$'
    else
        tail -n 2 "$log"
    fi
done
grep -E '^# (TOTAL|PASS|FAIL|ERROR)' check.log || true
[ "$status" -eq 0 ] || { echo "test.sh: make check failed; see build/check.log and build/tests/*/*.log" >&2; cat check.log | tail -n 30 >&2; }
exit "$status"
