#!/bin/sh
# docbench.sh - "make bench-doc": time `xiri check` and `xiri links` against
# a bare libxml2 SAX parse (bench/floor_sax) of the same generated documents
# in the same run, and report median wall time, MB/s, ratio and peak RSS.
# Usage: bench/docbench.sh BUILDDIR [options]   (options also from
#        $DOCBENCH_ARGS, e.g. make bench-doc DOCBENCH_ARGS='-r 9')
#   -d DIR     the corpus directory (default $DOCBENCH_DIR, else
#              ${TMPDIR:-/tmp}/xiri-docbench); generated when missing
#   -r N       repetitions for documents under 100 MB (default 5)
#   -R N       repetitions for documents of 100 MB or more (default 2)
#   -s LIST    sizes in MB (default 20,200)
#   -f LIST    flavours: xhtml,html5,sjis,cp1252 (default all)
#   -k LIST    what to time: floor,links,check (default all three)
set -eu

usage() {
    sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

[ $# -ge 1 ] || usage
builddir=$1
shift
srcdir=$(cd "$(dirname "$0")/.." && pwd)
cd "$builddir"
if [ ! -f Makefile ]; then
    echo "docbench.sh: $builddir is not a configured build directory" >&2
    exit 2
fi

dir=${DOCBENCH_DIR:-${TMPDIR:-/tmp}/xiri-docbench}
reps=5
reps_big=2
sizes=20,200
flavours=xhtml,html5,sjis,cp1252
keys=floor,links,check
# shellcheck disable=SC2086 # DOCBENCH_ARGS is split on purpose
set -- ${DOCBENCH_ARGS:-} "$@"
while [ $# -gt 0 ]; do
    case $1 in
        -d) dir=$2; shift 2 ;;
        -r) reps=$2; shift 2 ;;
        -R) reps_big=$2; shift 2 ;;
        -s) sizes=$2; shift 2 ;;
        -f) flavours=$2; shift 2 ;;
        -k) keys=$2; shift 2 ;;
        *) usage ;;
    esac
done

# Under "make bench-doc" the programs are up to date; by hand, build them.
if [ -z "${MAKELEVEL:-}" ]; then
    ${MAKE:-make} -s xiri bench/floor_sax
fi

# Figures from an unoptimized or instrumented build mean nothing.
mkvar() {
    sed -n "s/^$1 = //p" Makefile | head -n 1
}
cflags=$(mkvar CFLAGS)
opt=none
for f in $cflags; do
    case $f in -O*) opt=$f ;; esac
done
case $opt in
    -O2 | -O3 | -Os | -Ofast) ;;
    *) echo "WARNING: built with CFLAGS='$cflags'; reconfigure with the" \
        "default CFLAGS (-g -O2) to get meaningful figures" ;;
esac
if [ -n "$(mkvar SAN_CFLAGS)" ]; then
    echo "WARNING: this build has sanitizers or coverage on;" \
        "the figures below are not meaningful"
fi
if ! date +%N | grep -q '^[0-9]'; then
    echo "docbench.sh: needs date +%N (GNU coreutils)" >&2
    exit 2
fi
rsstool=/usr/bin/time
if ! "$rsstool" -f %M -o /dev/null true 2>/dev/null; then
    echo "NOTE: no GNU /usr/bin/time: peak RSS is not measured"
    rsstool=
fi

# The corpus: generated once, kept for the next run (never in the tree).
ext_of() {
    case $1 in xhtml) echo xhtml ;; *) echo html ;; esac
}
missing=
for fl in $(echo "$flavours" | tr , ' '); do
    for mb in $(echo "$sizes" | tr , ' '); do
        [ -f "$dir/$fl-$mb.$(ext_of "$fl")" ] || missing="$missing $fl"
    done
done
if [ -n "$missing" ]; then
    # shellcheck disable=SC2086 # one word per flavour
    set -- $(echo "$missing" | tr ' ' '\n' | sort -u)
    echo "generating the corpus in $dir ($*, $sizes MB) ..."
    python3 "$srcdir/bench/gen_docs.py" -o "$dir" --sizes "$sizes" "$@"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    head -n 1)
cc=$(mkvar CC)
echo "machine: ${cpu:-unknown CPU}, $(getconf _NPROCESSORS_ONLN) CPUs;" \
    "compiler: $cc $($cc -dumpfullversion 2>/dev/null || echo '?');" \
    "CFLAGS: $cflags; libxml2 $(pkg-config --modversion libxml-2.0 \
        2>/dev/null || echo '?')"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/docbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# run KEY FILE: time one run; appends "seconds rss_kb" to $tmp/KEY.
run() {
    case $1 in
        floor) set -- "$2" ./bench/floor_sax "$2" ;;
        links) set -- "$2" ./xiri links --format=json "$2" ;;
        check) set -- "$2" ./xiri check "$2" ;;
    esac
    shift
    t0=$(date +%s%N)
    rc=0
    if [ -n "$rsstool" ]; then
        "$rsstool" -f %M -o "$tmp/rss" "$@" >/dev/null 2>"$tmp/err" || rc=$?
    else
        "$@" >/dev/null 2>"$tmp/err" || rc=$?
    fi
    t1=$(date +%s%N)
    # xiri exits 1 when it found errors in the document: that is a result
    if [ "$rc" -gt 1 ] || { [ "$rc" -ne 0 ] && [ "$1" = ./bench/floor_sax ]; }
    then
        echo "docbench.sh: '$*' failed (exit $rc):" >&2
        head -n 5 "$tmp/err" >&2
        exit 1
    fi
    rss=0
    [ -z "$rsstool" ] || rss=$(tail -n 1 "$tmp/rss")
    echo "$t0 $t1 $rss" >>"$tmp/$key"
}

# Median and minimum seconds, and the largest peak RSS, of $tmp/KEY.
stats() {
    awk '{ t[NR] = ($2 - $1) / 1e9; if ($3 > rss) rss = $3 }
        END {
            n = asort(t)
            med = n % 2 ? t[(n + 1) / 2] : (t[n / 2] + t[n / 2 + 1]) / 2
            printf "%.3f %.3f %d\n", med, t[1], rss
        }' "$tmp/$1"
}

printf '\n| document | MB | tool | median s | min s | MB/s | x floor | peak RSS MB |\n'
printf '|---|---:|---|---:|---:|---:|---:|---:|\n'
: >"$tmp/summary"
for fl in $(echo "$flavours" | tr , ' '); do
    for mb in $(echo "$sizes" | tr , ' '); do
        file=$dir/$fl-$mb.$(ext_of "$fl")
        bytes=$(wc -c <"$file")
        n=$reps
        [ "$mb" -lt 100 ] || n=$reps_big
        cat "$file" >/dev/null # into the page cache
        for key in $(echo "$keys" | tr , ' '); do
            : >"$tmp/$key"
        done
        # round-robin over the tools, so that a slow phase of the machine
        # affects them alike
        i=0
        while [ "$i" -lt "$n" ]; do
            for key in $(echo "$keys" | tr , ' '); do
                run "$key" "$file"
            done
            i=$((i + 1))
        done
        floor_med=
        for key in $(echo "$keys" | tr , ' '); do
            # shellcheck disable=SC2046
            set -- $(stats "$key")
            [ "$key" != floor ] || floor_med=$1
            awk -v fl="$fl" -v mb="$mb" -v key="$key" -v med="$1" \
                -v min="$2" -v rss="$3" -v bytes="$bytes" -v fm="$floor_med" \
                -v n="$n" 'BEGIN {
                    ratio = fm != "" ? sprintf("%.2f", med / fm) : ""
                    printf "| %s | %d | %s | %.3f | %.3f | %.1f | %s | %.1f |\n",
                        fl, bytes / 1e6, key, med, min, bytes / 1e6 / med,
                        ratio, rss / 1024
                }'
            echo "$fl $mb $key $1 $3 $floor_med" >>"$tmp/summary"
        done
    done
done

# The targets of issue 3: check within 1.25x the floor; peak RSS the same
# for the small and the large document.
echo
awk -v reps="$reps" -v big="$reps_big" '
    { key = $1 " " $3; if (!(key in small)) { small[key] = $5; smb[key] = $2 }
      else { large[key] = $5; lmb[key] = $2 }
      if ($3 == "check" && $6 != "")
          printf "check / floor, %s %d MB: %.2f (target 1.25: %s)\n", $1, $2,
              $4 / $6, $4 / $6 <= 1.25 ? "met" : "missed" }
    END {
        for (k in large)
            if (small[k] > 0)
                printf "peak RSS %s %d -> %d MB: %.1f -> %.1f MB (%+.1f%%)\n",
                    k, smb[k], lmb[k], small[k] / 1024, large[k] / 1024,
                    100 * (large[k] - small[k]) / small[k] | "sort"
        printf "repetitions: %d (under 100 MB), %d (100 MB and more); " \
            "times are medians of wall time, RSS the largest of the runs\n",
            reps, big
    }' "$tmp/summary"
