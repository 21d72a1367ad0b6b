#!/bin/sh
# rewritebench.sh - issue 4's benchmark: time `xiri rewrite` on the 20 MB
# XHTML and HTML documents of bench/docbench.sh against the bare libxml2 SAX
# floor (bench/floor_sax), the Python pipeline a user would otherwise write
# (bench/lxml_rewrite.py: lxml, urljoin, quote) and HTML Tidy's fix-uri, in
# the same run; report the median wall and CPU (user + system) time of
# each, their ratios to the floor and xiri's speed-up over the Python
# pipeline.
# Usage: bench/rewritebench.sh BUILDDIR [options]
#   -d DIR     the corpus directory (default $DOCBENCH_DIR, else
#              ${TMPDIR:-/tmp}/xiri-docbench); generated when missing
#   -r N       repetitions (default 3)
# Options also come from $REWRITEBENCH_ARGS (make bench-rewrite
# REWRITEBENCH_ARGS='-r 5'); "make bench" runs it after docbench.sh.
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
    echo "rewritebench.sh: $builddir is not a configured build directory" >&2
    exit 2
fi
dir=${DOCBENCH_DIR:-${TMPDIR:-/tmp}/xiri-docbench}
reps=3
# shellcheck disable=SC2086 # REWRITEBENCH_ARGS is split on purpose
set -- ${REWRITEBENCH_ARGS:-} "$@"
while [ $# -gt 0 ]; do
    case $1 in
        -d) dir=$2; shift 2 ;;
        -r) reps=$2; shift 2 ;;
        *) usage ;;
    esac
done

if [ -z "${MAKELEVEL:-}" ]; then
    ${MAKE:-make} -s xiri bench/floor_sax
fi
for prog in xiri bench/floor_sax; do
    if [ ! -x "$prog" ]; then
        echo "rewritebench.sh: $builddir/$prog is missing: make $prog" >&2
        exit 2
    fi
done

# the corpus: the same generator and directory as docbench.sh
missing=
[ -f "$dir/xhtml-20.xhtml" ] || missing="$missing xhtml"
[ -f "$dir/html5-20.html" ] || missing="$missing html5"
if [ -n "$missing" ]; then
    echo "generating the corpus in $dir ($missing, 20 MB) ..."
    # shellcheck disable=SC2086 # one word per flavour
    python3 "$srcdir/bench/gen_docs.py" -o "$dir" --sizes 20 $missing
fi

# the real program, not libtool's wrapper script (see docbench.sh)
xiri=./xiri
if [ -f .libs/lt-xiri ] || [ -f .libs/xiri ]; then
    if [ -f .libs/lt-xiri ]; then xiri=.libs/lt-xiri; else xiri=.libs/xiri; fi
    LD_LIBRARY_PATH=$(pwd)/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    export LD_LIBRARY_PATH
fi
if ! "$xiri" --version >/dev/null 2>&1 && [ "$xiri" != ./xiri ]; then
    xiri=./xiri
fi

# The Python pipeline needs lxml (Debian's python3-lxml goes to
# /usr/bin/python3, which may not be the python3 first on PATH).
py=
for p in ${PYTHON:-} python3 /usr/bin/python3; do
    if "$p" -c 'import lxml.etree, lxml.html' 2>/dev/null; then
        py=$p
        break
    fi
done
keys="floor xiri"
if [ -n "$py" ]; then
    keys="$keys python"
else
    echo "SKIP python-lxml: no python3 with lxml (apt-get install python3-lxml)"
fi
if command -v tidy >/dev/null 2>&1; then
    keys="$keys tidy"
else
    echo "SKIP tidy: not installed (apt-get install tidy)"
fi

# Other work on the machine shows in wall times (less in CPU times).
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
if [ -r /proc/loadavg ]; then
    echo "load average $(cut -d ' ' -f 1-3 /proc/loadavg) on $ncpu CPUs"
    if awk -v n="$ncpu" '{ exit !($1 > n / 2) }' /proc/loadavg; then
        echo "WARNING: other work will slow the runs down; compare CPU times"
    fi
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/rewritebench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

echo "$("$xiri" --version); libxml2 $(pkg-config --modversion libxml-2.0 \
    2>/dev/null || echo '?')${py:+; $("$py" -c 'import sys, lxml.etree as e
print("python %d.%d.%d" % sys.version_info[:3], "lxml", e.__version__)')}$(
    command -v tidy >/dev/null 2>&1 && printf '; %s' "$(tidy -v | head -n 1)")"

# run KEY FILE: append the wall and the CPU seconds of one run to $tmp/KEY
# and $tmp/KEY.cpu
run() {
    case $1 in
        floor) set -- "$1" ./bench/floor_sax "$2" ;;
        xiri) set -- "$1" "$xiri" rewrite --resolve "$2" ;;  # resolves, like the pipeline
        python) set -- "$1" "$py" "$srcdir/bench/lxml_rewrite.py" "$2" ;;
        tidy) set -- "$1" tidy -q -utf8 --fix-uri yes -o /dev/null "$2" ;;
    esac
    key=$1
    shift
    rc=0
    python3 -c '
import os, subprocess, sys, time
with open("/dev/null", "wb") as null, open(sys.argv[1], "wb") as e:
    t0 = time.perf_counter()
    p = subprocess.Popen(sys.argv[3:], stdout=null, stderr=e)
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter()
p.returncode = os.waitstatus_to_exitcode(status)
with open(sys.argv[2], "a") as f:
    f.write("%.6f\n" % (t1 - t0))
with open(sys.argv[2] + ".cpu", "a") as f:
    f.write("%.6f\n" % (ru.ru_utime + ru.ru_stime))
sys.exit(p.returncode)' "$tmp/err" "$tmp/$key" "$@" || rc=$?
    # xiri exits 1 for findings, tidy 1 for warnings: results, not failures
    if [ "$rc" -gt 1 ] || { [ "$rc" -ne 0 ] && [ "$key" != xiri ] &&
        [ "$key" != tidy ]; }; then
        echo "rewritebench.sh: '$*' failed (exit $rc):" >&2
        head -n 5 "$tmp/err" >&2
        exit 1
    fi
}

median() {
    sort -n "$1" | awk '{ t[NR] = $1 } END {
        printf "%.3f\n", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }'
}

printf '\n| document | tool | median s | x floor | median CPU s | CPU x floor |\n'
printf '|---|---|---:|---:|---:|---:|\n'
: >"$tmp/speedup"
for file in "$dir/xhtml-20.xhtml" "$dir/html5-20.html"; do
    cat "$file" >/dev/null # into the page cache
    for key in $keys; do
        : >"$tmp/$key"
        : >"$tmp/$key.cpu"
    done
    # round-robin, so that a slow phase of the machine hits all alike
    i=0
    while [ "$i" -lt "$reps" ]; do
        for key in $keys; do
            run "$key" "$file"
        done
        i=$((i + 1))
    done
    fm=$(median "$tmp/floor")
    fc=$(median "$tmp/floor.cpu")
    for key in $keys; do
        m=$(median "$tmp/$key")
        c=$(median "$tmp/$key.cpu")
        eval "med_$key=\$m"
        eval "cpu_$key=\$c"
        label=$key
        case $key in
            floor) label=floor_sax ;;
            xiri) label="xiri rewrite --resolve" ;;
            python) label="python lxml+urljoin+quote" ;;
            tidy) label="tidy --fix-uri" ;;
        esac
        awk -v d="$(basename "$file")" -v l="$label" -v m="$m" -v f="$fm" \
            -v c="$c" -v fc="$fc" 'BEGIN { printf "| %s | %s | %.3f | %.2f | " \
            "%.3f | %.2f |\n", d, l, m, m / f, c, (fc > 0 ? c / fc : 0) }'
    done
    if [ -n "$py" ]; then
        # shellcheck disable=SC2154 # set by eval above
        awk -v d="$(basename "$file")" -v x="$med_xiri" -v p="$med_python" \
            'BEGIN { printf "%s: xiri rewrite is %.1fx faster than the " \
                "Python pipeline (target 15: %s)\n", d, p / x,
                (p / x >= 15 ? "met" : "missed") }' >>"$tmp/speedup"
    fi
    # shellcheck disable=SC2154
    awk -v d="$(basename "$file")" -v x="$med_xiri" -v f="$fm" \
        -v xc="$cpu_xiri" -v fc="$fc" \
        'BEGIN { printf "%s: xiri rewrite / floor %.2f wall, %.2f CPU " \
            "(target 1.6: %s)\n", d, x / f, (fc > 0 ? xc / fc : 0),
            (x / f <= 1.6 ? "met" : "missed") }' >>"$tmp/speedup"
done
echo
cat "$tmp/speedup"
echo "times are medians of $reps runs (wall clock; CPU = user + system)"
