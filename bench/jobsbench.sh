#!/bin/sh
# jobsbench.sh - -j: time `xiri check -r` over 200 small generated HTML
# files (about 30 KB, 300 links each, with non-ASCII paths and IDN hosts)
# with -j 1 and -j N,
# median wall time of R runs each, and check that the outputs are the
# same bytes.  A benchmark, never part of "make check".
# Usage: bench/jobsbench.sh XIRI [N [R]]   (N default 2, R default 5);
# XIRI the binary itself (in a build tree: .libs/xiri with
# LD_LIBRARY_PATH=.libs), not libtool's wrapper script, whose start-up
# would dominate.
set -eu

[ $# -ge 1 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
xiri=$1
n=${2:-2}
reps=${3:-5}
dir=$(mktemp -d "${TMPDIR:-/tmp}/xiri-jobsbench.XXXXXX")
trap 'rm -rf "$dir"' EXIT

i=0
while [ $i -lt 200 ]; do
    f=$dir/t/d$((i % 10))/p$i.html
    mkdir -p "${f%/*}"
    {
        printf '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>\n'
        k=0
        while [ $k -lt 300 ]; do
            printf '<a href="https://b\303\274cher%d.example/%d/caf\303\251/%d?q=%d">l</a>\n' $k $i $k $k
            k=$((k + 1))
        done
        printf '</body></html>\n'
    } >"$f"
    i=$((i + 1))
done

# median wall time of reps runs of: xiri check -j J -r DIR
median() {
    j=$1
    r=0
    : >"$dir/times"
    while [ $r -lt "$reps" ]; do
        s=$(date +%s.%N)
        "$xiri" check -q -j "$j" -r "$dir/t" >/dev/null 2>&1 || true
        e=$(date +%s.%N)
        echo "$s $e" | awk '{printf "%.4f\n", $2 - $1}' >>"$dir/times"
        r=$((r + 1))
    done
    sort -n "$dir/times" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

"$xiri" check -j 1 -r "$dir/t" >"$dir/o1" 2>&1 || true
"$xiri" check -j "$n" -r "$dir/t" >"$dir/on" 2>&1 || true
cmp -s "$dir/o1" "$dir/on" || { echo "jobsbench: -j $n output differs" >&2; exit 1; }
t1=$(median 1)
tn=$(median "$n")
echo "200 files, $(du -sk "$dir/t" | cut -f1) KB; median of $reps runs"
echo "-j 1: $t1 s"
echo "-j $n: $tn s"
echo "$t1 $tn" | awk -v n="$n" '{printf "speed-up -j %s / -j 1: %.2fx\n", n, $1 / $2}'
