#!/bin/sh
# run.sh - "make bench": build bench/bench_iri if needed, check that the
# build is one worth timing, then generate the pairs and print the table.
# Usage: bench/run.sh BUILDDIR [bench_iri options]
#        (options also from $BENCH_ARGS, e.g. make bench BENCH_ARGS='-r 9')
set -eu

if [ $# -lt 1 ]; then
    echo "usage: $0 BUILDDIR [bench_iri options]" >&2
    exit 2
fi
builddir=$1
shift
cd "$builddir"
if [ ! -f Makefile ]; then
    echo "run.sh: $builddir is not a configured build directory" >&2
    exit 2
fi

# Under "make bench" the program is already up to date; run by hand,
# build it (and libxiri) first.
if [ -z "${MAKELEVEL:-}" ]; then
    ${MAKE:-make} -s bench/bench_iri
fi

# Figures from an unoptimized or instrumented library mean nothing.
mkvar() {
    sed -n "s/^$1 = //p" Makefile | head -n 1
}
cflags=$(mkvar CFLAGS)
san=$(mkvar SAN_CFLAGS)
opt=none
for f in $cflags; do
    case $f in -O*) opt=$f ;; esac
done
case $opt in
    -O2 | -O3 | -Os | -Ofast) ;;
    *)
        echo "WARNING: libxiri is built with CFLAGS='$cflags' (last -O:" \
            "$opt); reconfigure with the default CFLAGS (-g -O2) to get" \
            "meaningful figures" ;;
esac
if [ -n "$san" ]; then
    echo "WARNING: this build has sanitizers or coverage on ($san);" \
        "the figures below are not meaningful"
fi
if ! grep -q '^[^#]*-DBENCH_HAVE_URIPARSER' Makefile; then
    echo "NOTE: uriparser was not found by configure (install" \
        "liburiparser-dev and re-run configure); timing xiri alone"
fi

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
    head -n 1)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')
cc=$(mkvar CC)
echo "machine: ${cpu:-unknown CPU}, $ncpu CPUs; compiler: $cc" \
    "$($cc -dumpfullversion 2>/dev/null || $cc -dumpversion 2>/dev/null ||
        echo '?'); CFLAGS: $cflags"

# shellcheck disable=SC2086 # BENCH_ARGS is split on purpose
exec ./bench/bench_iri ${BENCH_ARGS:-} "$@"
