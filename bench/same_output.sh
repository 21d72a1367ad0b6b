#!/bin/sh
# same_output.sh - run two builds of xiri over the same documents and
# compare what they print: stdout, stderr and the exit status, byte for
# byte.  For speed work: the new build must say exactly what the old one
# said.
# Usage: bench/same_output.sh OLD_XIRI NEW_XIRI [options]
#   OLD_XIRI, NEW_XIRI  the programs; a build directory's libtool wrapper
#              (BUILD/xiri) is replaced by BUILD/.libs/xiri run with
#              LD_LIBRARY_PATH=BUILD/.libs (the wrapper's shell is slow)
#   -d DIR     the generated documents (default $DOCBENCH_DIR, else
#              ${TMPDIR:-/tmp}/xiri-docbench): xhtml-20, html5-20, sjis-20
#              and cp1252-20 of bench/gen_docs.py; missing ones are skipped
#   -s DIR     the shared directory (default $SHARED_DIR, else ../shared
#              beside the source tree): every file of corpus/chardet, read
#              in place
#   -m LIST    only these modes (numbers 1-7 below, comma-separated)
# The modes: 1 rewrite, 2 rewrite --resolve, 3 rewrite --to=iri,
# 4 rewrite --resolve --idn=percent, 5 rewrite --repair,
# 6 links --format=json, 7 check --format=json; each on every generated
# document, every file of samples/ and every corpus document.
# Exit status: 0 when everything is the same, 1 when something differs
# (the first differences are listed), 2 on a usage error.
set -u
LC_ALL=C
export LC_ALL

usage() {
    sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
}

[ $# -ge 2 ] || usage
old=$1
new=$2
shift 2
srcdir=$(cd "$(dirname "$0")/.." && pwd)
docdir=${DOCBENCH_DIR:-${TMPDIR:-/tmp}/xiri-docbench}
shared=${SHARED_DIR:-$srcdir/../shared}
modes=1,2,3,4,5,6,7
while [ $# -gt 0 ]; do
    case $1 in
        -d) [ $# -ge 2 ] || usage; docdir=$2; shift 2 ;;
        -s) [ $# -ge 2 ] || usage; shared=$2; shift 2 ;;
        -m) [ $# -ge 2 ] || usage; modes=$2; shift 2 ;;
        *) usage ;;
    esac
done

# prog PATH: sets prog_bin and prog_lib (the LD_LIBRARY_PATH to use)
prog() {
    prog_bin=$1
    prog_lib=${LD_LIBRARY_PATH:-}
    d=$(dirname "$1")
    if [ -f "$d/.libs/xiri" ] && [ "$(head -c 2 "$1")" = "#!" ]; then
        prog_bin=$d/.libs/xiri
        prog_lib=$(cd "$d/.libs" && pwd)${prog_lib:+:$prog_lib}
    fi
    if [ ! -x "$prog_bin" ]; then
        echo "same_output.sh: $1 is not a program" >&2
        exit 2
    fi
}
prog "$old"
old_bin=$prog_bin
old_lib=$prog_lib
prog "$new"
new_bin=$prog_bin
new_lib=$prog_lib

tmp=$(mktemp -d "${TMPDIR:-/tmp}/same_output.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM

# the documents, one a line
: >"$tmp/files"
for f in xhtml-20.xhtml html5-20.html sjis-20.html cp1252-20.html; do
    if [ -f "$docdir/$f" ]; then
        echo "$docdir/$f" >>"$tmp/files"
    else
        echo "same_output.sh: no $docdir/$f (bench/gen_docs.py): skipped" >&2
    fi
done
find "$srcdir/samples" -type f | sort >>"$tmp/files"
if [ -d "$shared/corpus/chardet" ]; then
    find "$shared/corpus/chardet" -type f | sort >>"$tmp/files"
else
    echo "same_output.sh: no $shared/corpus/chardet: skipped" >&2
fi

# run WHO ARGS...: runs the old or new program, output in $tmp/WHO.*
run() {
    who=$1
    shift
    if [ "$who" = old ]; then
        LD_LIBRARY_PATH=$old_lib "$old_bin" "$@" >"$tmp/old.out" \
            2>"$tmp/old.err"
    else
        LD_LIBRARY_PATH=$new_lib "$new_bin" "$@" >"$tmp/new.out" \
            2>"$tmp/new.err"
    fi
    echo $? >"$tmp/$who.rc"
}

compared=0
differ=0
for m in $(echo "$modes" | tr ',' ' '); do
    case $m in
        1) set -- rewrite ;;
        2) set -- rewrite --resolve ;;
        3) set -- rewrite --to=iri ;;
        4) set -- rewrite --resolve --idn=percent ;;
        5) set -- rewrite --repair ;;
        6) set -- links --format=json ;;
        7) set -- check --format=json ;;
        *) usage ;;
    esac
    while IFS= read -r f; do
        run old "$@" "$f"
        run new "$@" "$f"
        compared=$((compared + 1))
        for k in out err rc; do
            if ! cmp -s "$tmp/old.$k" "$tmp/new.$k"; then
                differ=$((differ + 1))
                if [ "$differ" -le 20 ]; then
                    echo "DIFFERS ($k): xiri $* $f"
                    if [ "$k" = rc ]; then
                        echo "  exit $(cat "$tmp/old.rc") -> $(cat "$tmp/new.rc")"
                    else
                        cmp "$tmp/old.$k" "$tmp/new.$k" 2>&1 | sed 's/^/  /'
                    fi
                fi
                break
            fi
        done
    done <"$tmp/files"
done
echo "same_output.sh: $compared runs compared, $differ differ" \
    "($(wc -l <"$tmp/files") files, modes $modes)"
[ "$differ" -eq 0 ]
