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

for prog in xiri bench/floor_sax; do
    if [ ! -x "$prog" ]; then
        echo "docbench.sh: $builddir/$prog is missing: make $prog" >&2
        exit 2
    fi
done

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
if ! python3 -c 'import os; os.wait4; os.waitstatus_to_exitcode' 2>/dev/null
then
    echo "docbench.sh: needs python3 (3.9 or later)" >&2
    exit 2
fi
rss=yes
if ! /usr/bin/time -f %M -o /dev/null true 2>/dev/null; then
    echo "NOTE: no GNU /usr/bin/time: peak RSS is not measured"
    rss=-
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
    # shellcheck disable=SC2046 # one word per flavour
    set -- $(echo "$missing" | tr ' ' '\n' | sort -u)
    echo "generating the corpus in $dir ($*, $sizes MB) ..."
    python3 "$srcdir/bench/gen_docs.py" -o "$dir" --sizes "$sizes" "$@"
fi

# With a shared libxiri, ./xiri is libtool's wrapper script, whose shell
# start-up (about 15 ms) a user of the installed program never pays: time
# the real program, pointed at the library of this build.
xiri=./xiri
if [ -f .libs/lt-xiri ] || [ -f .libs/xiri ]; then
    if [ -f .libs/lt-xiri ]; then xiri=.libs/lt-xiri; else xiri=.libs/xiri; fi
    LD_LIBRARY_PATH=$(pwd)/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
fi
if ! "$xiri" --version >/dev/null 2>&1 && [ "$xiri" != ./xiri ]; then
    xiri=./xiri # the wrapper knows better
fi

# Other work on the machine shows in wall times (less in CPU times).
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ -r /proc/loadavg ] &&
    awk -v n="$ncpu" '{ exit !($1 > n / 2) }' /proc/loadavg; then
    echo "WARNING: load average $(cut -d ' ' -f 1-3 /proc/loadavg) on" \
        "$ncpu CPUs: other work will slow the runs down; compare CPU times"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    head -n 1)
cc=$(mkvar CC)
echo "machine: ${cpu:-unknown CPU}, $ncpu CPUs;" \
    "compiler: $cc $($cc -dumpfullversion 2>/dev/null || echo '?');" \
    "CFLAGS: $cflags; $("$xiri" --version); libxml2 $(pkg-config --modversion libxml-2.0 \
        2>/dev/null || echo '?')"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/docbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
[ "$rss" = - ] || rss=$tmp/rss

# What the documents hold (the smallest of each flavour; the larger ones
# continue the same sequence of chapters): links as `xiri links` lists
# them, and findings of `xiri check` (severity error or not).
small=$(echo "$sizes" | tr , '\n' | sort -n | head -n 1)
for fl in $(echo "$flavours" | tr , ' '); do
    file=$dir/$fl-$small.$(ext_of "$fl")
    links=$("$xiri" links --format=tsv "$file" 2>/dev/null | wc -l)
    findings=$("$xiri" check --format=json "$file" 2>/dev/null | wc -l)
    awk -v f="$file" -v l="$links" -v c="$findings" -v b="$(wc -c <"$file")" \
        'BEGIN { printf "%s: %.1f MB, %d links (one per %.0f bytes), " \
            "%d findings\n", f, b / 1e6, l - 1, b / (l - 1), c }'
done

# The timer: wall time around one process (fork to wait), its CPU time
# from wait4 in microseconds (GNU time's %U has 10 ms), and its peak RSS
# from GNU time (%M), which runs it: Linux keeps the peak RSS of a process
# across exec, and a child forked from Python starts at Python's 13 MB.
# Python starts before the clock does; GNU time adds about a millisecond.
# Appends "wall_s user_s sys_s maxrss_kb" to argv[1].
cat >"$tmp/timer.py" <<'EOF'
import os, subprocess, sys, time
out, err, rss, cmd = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
if rss != "-":
    cmd = ["/usr/bin/time", "-f", "%M", "-o", rss] + cmd
with open(os.devnull, "wb") as null, open(err, "wb") as e:
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=null, stderr=e)
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter()
kb = 0
if rss != "-":
    with open(rss) as f:
        kb = int(f.read().split()[-1])
with open(out, "a") as f:
    f.write("%.6f %.6f %.6f %d\n" % (t1 - t0, ru.ru_utime, ru.ru_stime, kb))
sys.exit(os.waitstatus_to_exitcode(status))
EOF

# run KEY FILE: time one run of KEY on FILE into $tmp/KEY.
run() {
    out=$tmp/$1
    case $1 in
        floor) set -- ./bench/floor_sax "$2" ;;
        links) set -- "$xiri" links --format=json "$2" ;;
        check) set -- "$xiri" check "$2" ;;
    esac
    rc=0
    python3 "$tmp/timer.py" "$out" "$tmp/err" "$rss" "$@" || rc=$?
    # xiri exits 1 when it found errors in the document: that is a result
    if [ "$rc" -gt 1 ] || { [ "$rc" -ne 0 ] && [ "$1" = ./bench/floor_sax ]; }
    then
        echo "docbench.sh: '$*' failed (exit $rc):" >&2
        head -n 5 "$tmp/err" >&2
        exit 1
    fi
}

# Median and minimum wall seconds, median CPU seconds (user + system) and
# the largest peak RSS (KB) of $tmp/KEY.
median() {
    sort -n | awk '{ t[NR] = $1 }
        END { printf "%.3f\n", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}
stats() {
    printf '%s %s %s %s\n' \
        "$(awk '{ print $1 }' "$tmp/$1" | median)" \
        "$(awk '{ print $1 }' "$tmp/$1" | sort -n | head -n 1)" \
        "$(awk '{ print $2 + $3 }' "$tmp/$1" | median)" \
        "$(awk '$4 > m { m = $4 } END { print m + 0 }' "$tmp/$1")"
}

printf '\n| document | MB | tool | median s | min s | MB/s | x floor | CPU s | peak RSS MB |\n'
printf '|---|---:|---|---:|---:|---:|---:|---:|---:|\n'
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
        floor_cpu=
        for key in $(echo "$keys" | tr , ' '); do
            # shellcheck disable=SC2046
            set -- $(stats "$key")
            if [ "$key" = floor ]; then
                floor_med=$1
                floor_cpu=$3
            fi
            awk -v fl="$fl" -v mb="$mb" -v key="$key" -v med="$1" \
                -v min="$2" -v cpu="$3" -v rss="$4" -v bytes="$bytes" \
                -v fm="$floor_med" 'BEGIN {
                    ratio = fm != "" ? sprintf("%.2f", med / fm) : ""
                    printf "| %s | %d | %s | %.3f | %.3f | %.1f | %s | %.3f | %.1f |\n",
                        fl, bytes / 1e6, key, med, min, bytes / 1e6 / med,
                        ratio, cpu, rss / 1024
                }'
            echo "$fl $mb $key $1 $4 $floor_med $3 $floor_cpu" >>"$tmp/summary"
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
          printf "check / floor, %s %d MB: %.2f wall, %s CPU (target 1.25: %s)\n",
              $1, $2, $4 / $6, ($8 > 0 ? sprintf("%.2f", $7 / $8) : "-"),
              ($4 / $6 <= 1.25 ? "met" : "missed") }
    END {
        for (k in large)
            if (small[k] > 0)
                printf "peak RSS %s %d -> %d MB: %.1f -> %.1f MB (%+.1f%%)\n",
                    k, smb[k], lmb[k], small[k] / 1024, large[k] / 1024,
                    100 * (large[k] - small[k]) / small[k] | "sort"
        close("sort")
        printf "repetitions: %d (under 100 MB), %d (100 MB and more); " \
            "times are medians of wall time, RSS the largest of the runs\n",
            reps, big
    }' "$tmp/summary"
