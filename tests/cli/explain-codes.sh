#!/bin/sh
# explain-codes.sh - every diagnostic code the document walker can report
# has an entry in the catalogue: 'xiri explain CODE' describes it.  The
# codes are read from the library's sources (each diag(w, "CODE", ...)
# call, over line breaks), so that a new code without an entry fails
# here.  Also checks that each entry is complete (severity, section,
# summary and an explanation) and that its severity is the one the walker
# reports it with.
#
# Environment: XIRI, the command to run; top_srcdir, the source tree.
# Prints one line per code and "N passed, N failed"; exits 1 when a code
# failed.

LC_ALL=C
export LC_ALL

if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
fi
if [ -z "${XIRI:-}" ]; then
    XIRI=$PWD/xiri
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/xiri-explain.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 99' HUP INT TERM

# "CODE SEVERITY" for each diag(w, "CODE", XIRI_SEV_X, ...) call of the
# library, and value_diag(w, e, "CODE", ...) and about_diag(w, v, n,
# what, "CODE", ...) alike, the whole file joined into one line first
for f in "$top_srcdir"/src/lib/*.c; do
    tr '\n' ' ' <"$f" |
        grep -o 'diag([[:space:]]*w[[:space:]]*,[^"]*"[^"]*"[[:space:]]*,[[:space:]]*XIRI_SEV_[A-Z]*' |
        sed 's/.*"\([^"]*\)"[[:space:]]*,[[:space:]]*XIRI_SEV_\([A-Z]*\)$/\1 \2/'
done | tr 'A-Z' 'a-z' | sort -u >"$work/codes"

pass=0
fail=0
n=$(wc -l <"$work/codes")
# the walker reports 10 codes today; fewer means the pattern above broke
if [ "$n" -lt 10 ]; then
    echo "FAIL: found only $n diagnostic codes in src/lib/*.c; is the pattern right?"
    exit 1
fi

while read -r code sev; do
    # $XIRI is split on purpose (wrappers)
    if ! $XIRI explain "$code" >"$work/out" 2>"$work/err"; then
        fail=$((fail + 1))
        echo "FAIL: $code: no entry in the catalogue ($(head -n 1 "$work/err"))"
        continue
    fi
    why=
    grep -q "^code: *$code\$" "$work/out" || why="$why, no code line"
    grep -q "^severity: *$sev\$" "$work/out" ||
        why="$why, severity is not $sev (the walker's)"
    grep -q "^section: *[^ -]" "$work/out" || why="$why, no section"
    grep -q "^summary: *[^ -]" "$work/out" || why="$why, no summary"
    # the explanation: a paragraph after a blank line
    [ "$(sed -n '/^$/,$p' "$work/out" | wc -c)" -gt 200 ] ||
        why="$why, no explanation"
    # and it is listed by 'xiri explain'
    $XIRI explain | grep -q "^$code " || why="$why, not in the list"
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        echo "PASS: $code"
    else
        fail=$((fail + 1))
        echo "FAIL: $code (${why#, })"
    fi
done <"$work/codes"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
