#!/bin/sh
# run.sh - tests of the xiri command.  Each directory under cases/ is one
# case: "cmd" (sh code run in an empty temporary directory, calling the
# tool as "xiri"), and optionally "stdin" (fed to it, else /dev/null),
# "stdout" and "stderr" (expected bytes; a missing file means empty),
# "status" (expected exit status, default 0) and "json" (every stdout
# line must be one valid JSON text).  A cmd that exits 77 is skipped.
#
# Environment: XIRI, the command to run (may hold a wrapper, e.g.
# XIRI="valgrind -q --leak-check=full --error-exitcode=1 $PWD/xiri");
# top_srcdir, the source tree (read only); CLI_SHARD=K/N, run only the
# cases whose number (from 0, in name order) is K modulo N, so that N
# runs in parallel share the cases (CI does this under valgrind);
# CLI_SKIP, names of cases not to run, separated by spaces (CI's valgrind
# stage leaves out cases that run the tool dozens of times over paths
# other cases take).  Prints one line per case and "N passed, N failed";
# exits 1 when a case failed.

LC_ALL=C
export LC_ALL
unset LANG LANGUAGE XIRI_DEBUG 2>/dev/null

if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
fi
if [ -z "${XIRI:-}" ]; then
    XIRI=$PWD/xiri
fi
export top_srcdir XIRI

cases=$top_srcdir/tests/cli/cases
if [ ! -d "$cases" ]; then
    echo "run.sh: no cases under $cases" >&2
    exit 99
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/xiri-cli.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 99' HUP INT TERM

# The tool as the cases call it; $XIRI is split on purpose (wrappers).
xiri() {
    $XIRI "$@"
}

have_python=no
if command -v python3 >/dev/null 2>&1; then
    have_python=yes
fi

# same EXPECTED ACTUAL: EXPECTED may be missing (then ACTUAL must be empty)
same() {
    if [ -f "$1" ]; then
        cmp -s "$1" "$2"
    else
        [ ! -s "$2" ]
    fi
}

shard_k=0
shard_n=1
case ${CLI_SHARD:-} in
    '') ;;
    */*)
        shard_k=${CLI_SHARD%/*}
        shard_n=${CLI_SHARD#*/}
        ;;
    *)
        echo "run.sh: CLI_SHARD must be K/N" >&2
        exit 99
        ;;
esac

pass=0
fail=0
skip=0
index=-1
for dir in "$cases"/*/; do
    index=$((index + 1))
    [ $((index % shard_n)) -eq "$shard_k" ] || continue
    dir=${dir%/}
    name=${dir##*/}
    case " ${CLI_SKIP:-} " in
        *" $name "*)
            skip=$((skip + 1))
            echo "SKIP: $name (CLI_SKIP)"
            continue
            ;;
    esac
    out=$work/$name
    mkdir "$out" "$out/run" || exit 99
    input=/dev/null
    if [ -f "$dir/stdin" ]; then
        input=$dir/stdin
    fi
    (cd "$out/run" && . "$dir/cmd") <"$input" >"$out/stdout" 2>"$out/stderr"
    status=$?
    if [ "$status" -eq 77 ]; then
        skip=$((skip + 1))
        echo "SKIP: $name"
        continue
    fi
    want=0
    if [ -f "$dir/status" ]; then
        want=$(cat "$dir/status")
    fi
    why=
    if [ "$status" -ne "$want" ]; then
        why="$why, exit status $status (want $want)"
    fi
    if ! same "$dir/stdout" "$out/stdout"; then
        why="$why, stdout differs"
    fi
    if ! same "$dir/stderr" "$out/stderr"; then
        why="$why, stderr differs"
    fi
    if [ -f "$dir/json" ] && [ "$have_python" = yes ] &&
        ! python3 -m json.tool --json-lines <"$out/stdout" >/dev/null 2>&1; then
        why="$why, stdout is not one JSON text per line"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        echo "PASS: $name"
    else
        fail=$((fail + 1))
        echo "FAIL: $name (${why#, })"
        # keep what it printed, next to what was expected
        for f in stdout stderr; do
            if [ -f "$dir/$f" ]; then
                diff "$dir/$f" "$out/$f" >"$out/$f.diff" 2>&1
            fi
        done
    fi
done

if [ "$fail" -gt 0 ]; then
    keep=${TMPDIR:-/tmp}/xiri-cli-failed
    rm -rf "$keep"
    if cp -R "$work" "$keep" 2>/dev/null; then
        echo "# outputs of the failed cases: $keep/NAME/" >&2
    fi
fi
if [ "$skip" -gt 0 ]; then
    echo "# $skip skipped" >&2
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
