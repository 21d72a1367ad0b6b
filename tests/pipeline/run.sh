#!/bin/sh
# run.sh - the distributed recipes of the README, run locally: GNU
# parallel spreading the sample documents over jobs (one file per job, as
# on several hosts with --sshlogin; "-S 2/:" is two jobs on this machine
# through the same --sshlogin code path) and cutting a stream of IRIs
# into blocks for "xiri iri" filters (--pipe, what Hadoop Streaming and
# Spark's pipe do).  With -k, the merged JSON lines must be byte for byte
# those of one xiri process over the same inputs in the same order.
# Needs GNU parallel (Debian: parallel); exit 77 without it.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
: "${XIRI:?XIRI must name the xiri to test}"
if ! command -v parallel >/dev/null 2>&1 || ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    echo "SKIP: GNU parallel is not installed (apt-get install parallel)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xiri-pipe.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
HOME=$tmp    # parallel keeps its state in ~/.parallel
export HOME XIRI
fails=0 n=0
same() { # what, file1, file2
    n=$((n + 1))
    if [ -s "$2" ] && cmp -s "$2" "$3"; then
        echo "PASS: $1 ($(wc -l <"$2") lines)"
    else
        echo "FAIL: $1: the merged output differs from one process"; fails=$((fails + 1))
        diff "$2" "$3" | head -n 10
    fi
}

# a copy, so that both runs see the same files
cp -R "$top_srcdir/samples" "$tmp/samples" && cd "$tmp/samples" || exit 2
ls | grep -v -e '\.md$' -e '\.orig$' >"$tmp/files"
# shellcheck disable=SC2046
for cmd in check links; do
    "$XIRI" $cmd --format=json $(cat "$tmp/files") >"$tmp/one-$cmd" 2>/dev/null
    parallel --will-cite -k -j2 "$XIRI" $cmd --format=json {} <"$tmp/files" \
        >"$tmp/par-$cmd" 2>/dev/null
    same "$cmd: parallel -k -j2 over the files" "$tmp/one-$cmd" "$tmp/par-$cmd"
    parallel --will-cite -k -S 2/: "$XIRI" $cmd --format=json {} <"$tmp/files" \
        >"$tmp/ssh-$cmd" 2>/dev/null
    same "$cmd: parallel -k --sshlogin 2/: over the files" "$tmp/one-$cmd" "$tmp/ssh-$cmd"
done

# rewrite, one file per job: to stdout (merged with -k), and in place
# (-i) with the README's recipe, --sshlogin with --transferfile and
# --return: the tree must end up as one process leaves it, and changed.
# (The host here is ':', this machine, for which parallel transfers
# nothing: what is run is the recipe's command line, not the copying.)
grep -v '\.txt$' "$tmp/files" >"$tmp/docs"
# shellcheck disable=SC2046
"$XIRI" rewrite -q $(cat "$tmp/docs") >"$tmp/one-rw" 2>/dev/null
parallel --will-cite -k -j2 "$XIRI" rewrite -q {} <"$tmp/docs" >"$tmp/par-rw" 2>/dev/null
same "rewrite: parallel -k -j2 over the files" "$tmp/one-rw" "$tmp/par-rw"
cp -R "$tmp/samples" "$tmp/tree-one" && cp -R "$tmp/samples" "$tmp/tree-par" || exit 2
# shellcheck disable=SC2046
(cd "$tmp/tree-one" && "$XIRI" rewrite -q -i $(cat "$tmp/docs") 2>/dev/null)
(cd "$tmp/tree-par" && parallel --will-cite -S 2/: --transferfile {} --return {} \
    --cleanup "$XIRI" rewrite -q -i {} <"$tmp/docs" 2>/dev/null)
n=$((n + 1))
if diff -r "$tmp/samples" "$tmp/tree-one" >/dev/null; then
    echo "FAIL: rewrite -i: one process changed nothing"; fails=$((fails + 1))
elif diff -r "$tmp/tree-one" "$tmp/tree-par" >/dev/null; then
    echo "PASS: rewrite -i: parallel --sshlogin 2/: --return, the same tree"
else
    echo "FAIL: rewrite -i: parallel left another tree than one process"; fails=$((fails + 1))
    diff -r "$tmp/tree-one" "$tmp/tree-par" | head -n 10
fi

# A stream of IRIs (the values the samples hold) through the iri filters,
# cut into blocks of 10 lines for 2 jobs.
sed -n 's/.*"value":"\([^"\\]*\)".*/\1/p' "$tmp/one-links" >"$tmp/iris"
[ "$(wc -l <"$tmp/iris")" -ge 50 ] || { echo "FAIL: too few IRIs ($(wc -l <"$tmp/iris"))"; exit 1; }
for f in "iri check --profile=leiri" "iri to-uri --escape-leiri" "iri normalize --profile=leiri"; do
    # shellcheck disable=SC2086
    "$XIRI" $f --format=json <"$tmp/iris" >"$tmp/one" 2>/dev/null
    # shellcheck disable=SC2086
    parallel --will-cite -k -j2 --pipe -N 10 "$XIRI" $f --format=json <"$tmp/iris" >"$tmp/par" 2>/dev/null
    same "$f: parallel --pipe -N 10" "$tmp/one" "$tmp/par"
done
echo "$n recipes, $fails failed"
[ "$fails" -eq 0 ]
