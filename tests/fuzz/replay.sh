#!/bin/sh
# replay.sh - "make check" replays every fuzz target's committed corpus and
# past crashers (tests/fuzz/corpus/TARGET, tests/fuzz/crashers/TARGET-*)
# through the plain replay drivers: no clang or libFuzzer needed.
set -u
here=${top_srcdir:-.}/tests/fuzz
bin=${top_builddir:-.}/tests/fuzz
fail=0
for t in parse resolve map walk xsd rewrite; do
    set -- "$here/corpus/$t"
    for c in "$here"/crashers/"$t"-*; do
        [ -e "$c" ] && set -- "$@" "$c"
    done
    if ! "$bin/replay_$t" "$@"; then
        echo "FAIL: replay_$t"
        fail=1
    fi
done
exit $fail
