#!/bin/sh
# run.sh - xiri over the shared corpus of real feeds and pages
# ($SHARED_DIR/corpus/chardet, read in place, never copied: see
# $SHARED_DIR/corpus/README.md).  Skipped (exit 77) when the corpus or
# python3 is absent.  check.py says what is asserted.
#
# Environment: XIRI, the command to run; SHARED_DIR (the Makefile exports
# it); top_srcdir, the source tree.

LC_ALL=C
export LC_ALL

if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
fi
if [ -z "${XIRI:-}" ]; then
    XIRI=$PWD/xiri
fi
corpus=${SHARED_DIR:-$top_srcdir/../shared}/corpus/chardet
if [ ! -d "$corpus" ]; then
    echo "corpus: SKIP: no corpus at $corpus"
    exit 77
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "corpus: SKIP: python3 is needed"
    exit 77
fi
exec python3 "$top_srcdir/tests/corpus/check.py" "$XIRI" "$corpus"
