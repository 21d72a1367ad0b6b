#!/bin/sh
# completion.sh - the bash completion (contrib/bash-completion/xiri):
# sourced in a bash without the bash-completion package, it completes
# the commands, every option that "xiri COMMAND --help" lists, option
# values and "explain" codes.  Each expectation is written here from
# xiri(1): the command names, --format's values per command, the codes
# of the catalogue.  Exit 0 pass, 1 fail, 77 no bash.
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
: "${XIRI:?XIRI must name the xiri to test}"
command -v bash >/dev/null 2>&1 || { echo "SKIP: no bash"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xiri-comp.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" && ln -s "$XIRI" "$tmp/bin/xiri"
PATH=$tmp/bin:$PATH exec bash --norc --noprofile -c '
. "$1/contrib/bash-completion/xiri" || exit 1
fails=0 n=0
# comp LINE: the completions offered with the cursor at the end of LINE
comp() {
    COMP_LINE=$1 COMP_POINT=${#1}
    read -r -a COMP_WORDS <<<"$1"
    [[ $1 == *" " ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMPREPLY=()
    _xiri xiri "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
    printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "
}
expect() {
    local got
    n=$((n + 1))
    got=$(comp "$1")
    if [[ $got == "$2" ]]; then echo "PASS: [$1] -> $got"
    else echo "FAIL: [$1] -> [$got], expected [$2]"; fails=$((fails + 1)); fi
}
expect "xiri ch" "check "
expect "xiri " "check explain iri links rewrite "
expect "xiri check --for" "--format= "
expect "xiri links --for" "--format= "
expect "xiri check --format=" "json sarif text "
expect "xiri links --format=j" "json "
expect "xiri check --format j" "json "
expect "xiri iri to-" "to-iri to-uri "
expect "xiri iri normalize --ru" "--rung= "
expect "xiri iri normalize --rung=s" "scheme simple syntax "
expect "xiri iri check --profile=le" "leiri "
expect "xiri rewrite --to=" "iri uri "
expect "xiri rewrite --idn=k" "keep "
expect "xiri rewrite --identifiers=" "keep rewrite "
expect "xiri explain identifier-" "identifier-kept "
expect "xiri check --presets=at" "atom "
expect "xiri explain leiri-c" "leiri-char "
expect "xiri explain pct-not-u" "pct-not-utf8 "
expect "xiri -" "--help --version "
# every option the help of each command lists is offered after "--"
# (or "-" for the short ones)
for cmd in check links rewrite explain "iri check" "iri resolve" "iri to-uri" \
    "iri to-iri" "iri normalize" "iri compare" "iri display"; do
    offered=" $(comp "xiri $cmd -") "
    for opt in $(xiri $cmd --help 2>&1 | grep -oE "(^|[][ ,|])--?[a-zA-Z0-9][a-zA-Z0-9-]*" |
        sed -E "s/^[][ ,|]//" | sort -u); do
        n=$((n + 1))
        if [[ $offered != *" $opt "* && $offered != *" $opt= "* ]]; then
            echo "FAIL: xiri $cmd: $opt is not completed"; fails=$((fails + 1))
        fi
    done
done
# files for the document commands
cd "$1/samples" || exit 1
expect "xiri check links.x" "links.xhtml "
echo "$n completions checked, $fails failed"
[ "$fails" -eq 0 ]
' sh "$top_srcdir"
