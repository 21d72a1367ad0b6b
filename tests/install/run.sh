#!/bin/sh
# run.sh - the installation test.
#
#   run.sh             (make check) "make install DESTDIR=TMP" of the build
#                      tree, then the checks below on TMP
#   run.sh --installed (make installcheck) the same checks on what
#                      "make install" put under the configured prefix
#
# The checks: every file is where it belongs (xiri, libxiri.so with its
# versioned soname, libxiri.a, xiri.h, libxiri.pc, the schemas under
# $(datadir)/xiri/schemas, xiri.1, libxiri.3, the bash completion); the
# soname and file name follow -version-info in Makefile.am; the shared
# library exports exactly the functions xiri.h declares, all named xiri_*;
# the library has no writable global data (only the per-thread counters of
# the allocation-failure test hook); the example program of libxiri(3)
# builds with "pkg-config --cflags --libs libxiri" (and statically with
# --static) and prints what was derived by hand (example.out); the man
# pages pass "groff -man -ww -z"; the installed xiri, with no
# XIRI_SCHEMA_DIR, checks a sample and looks for its schemas in the
# installed directory first, and a DESTDIR-staged one never falls back to
# the source tree (only the uninstalled build-tree xiri does that).
#
# Environment (set by Makefile.am): abs_top_builddir, top_srcdir, MAKE and
# inst_bindir inst_libdir inst_includedir inst_pkgconfigdir inst_schemadir
# inst_mandir inst_bashcompletiondir.  Exit 0 pass, 1 fail, 77 skip.
set -u

here=$(cd "$(dirname "$0")" && pwd)
: "${top_srcdir:=$here/../..}"
mode=destdir
[ "${1:-}" = --installed ] && mode=installed
for v in abs_top_builddir inst_bindir inst_libdir inst_includedir \
    inst_pkgconfigdir inst_schemadir inst_mandir inst_bashcompletiondir; do
    eval "val=\${$v:-}"
    [ -n "$val" ] || { echo "run.sh: $v is not set; run me through make check" >&2; exit 2; }
done
for t in nm readelf objdump pkg-config groff; do
    command -v "$t" >/dev/null 2>&1 ||
        { echo "SKIP: $t is not installed (binutils, pkg-config, groff-base)"; exit 77; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/xiri-install.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
failures=0
checks=0
ok() { checks=$((checks + 1)); echo "PASS: $*"; }
bad() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAIL: $*"; }

if [ "$mode" = destdir ]; then
    root=$tmp/root
    # MAKEFLAGS off: this make is not a child of the one running the tests
    # (no jobserver to share).  -o: install what make check built, never
    # rebuild it (or the Makefile) under the other tests when a source
    # changed since.
    if (cd "$abs_top_builddir" && env -u MAKEFLAGS -u MFLAGS ${MAKE:-make} -s \
        -o Makefile -o all-am -o xiri -o libxiri.la -o libxiri.pc install DESTDIR="$root") \
        >"$tmp/install.log" 2>&1; then
        ok "make install DESTDIR=..."
    else
        bad "make install DESTDIR=... failed:"; tail -n 20 "$tmp/install.log"
        exit 1
    fi
else
    root=
fi
bindir=$root$inst_bindir
libdir=$root$inst_libdir
includedir=$root$inst_includedir
pcdir=$root$inst_pkgconfigdir
schemadir=$root$inst_schemadir
mandir=$root$inst_mandir
compdir=$root$inst_bashcompletiondir

# ---------------------------------------------------------------- layout
for f in "$bindir/xiri" "$libdir/libxiri.so" "$libdir/libxiri.a" "$includedir/xiri.h" \
    "$pcdir/libxiri.pc" "$mandir/man1/xiri.1" "$mandir/man3/libxiri.3" "$compdir/xiri"; do
    if [ -f "$f" ]; then ok "installed ${f#"$root"}"; else bad "missing ${f#"$root"}"; fi
done
# Every schema of the source tree is installed (a new one must be listed
# in dist_schema_DATA).
missing=
for s in "$top_srcdir"/schemas/*.xsd; do
    [ -f "$schemadir/$(basename "$s")" ] || missing="$missing $(basename "$s")"
done
if [ -z "$missing" ]; then ok "every schemas/*.xsd is in ${schemadir#"$root"}"
else bad "schemas not installed:$missing (add them to dist_schema_DATA)"; fi
cmp -s "$top_srcdir/src/include/xiri.h" "$includedir/xiri.h" &&
    ok "xiri.h is the source's" || bad "installed xiri.h differs from src/include/xiri.h"

# ---------------------------------------------------------------- soname
# libtool: -version-info C:R:A gives the soname libxiri.so.(C-A) and the
# file libxiri.so.(C-A).A.R (Linux).
vi=$(sed -n 's/.*-version-info \([0-9]*:[0-9]*:[0-9]*\).*/\1/p' "$top_srcdir/Makefile.am")
cur=${vi%%:*}; rest=${vi#*:}; rev=${rest%%:*}; age=${rest#*:}
major=$((cur - age))
soname=$(readelf -d "$libdir/libxiri.so" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
if [ -n "$vi" ] && [ "$soname" = "libxiri.so.$major" ]; then
    ok "soname $soname from -version-info $vi"
else
    bad "soname '$soname', expected libxiri.so.$major from -version-info '$vi'"
fi
[ -f "$libdir/libxiri.so.$major.$age.$rev" ] && [ -L "$libdir/libxiri.so.$major" ] &&
    ok "libxiri.so.$major -> libxiri.so.$major.$age.$rev" ||
    bad "no libxiri.so.$major.$age.$rev with its libxiri.so.$major link"

# ---------------------------------------------------------------- exports
nm -D --defined-only "$libdir/libxiri.so" | awk '$2 ~ /^[TDBRVWi]$/ {print $3}' | sort >"$tmp/exported"
grep -v '^xiri_' "$tmp/exported" >"$tmp/foreign"
if [ -s "$tmp/exported" ] && [ ! -s "$tmp/foreign" ]; then
    ok "libxiri.so exports only xiri_ symbols ($(wc -l <"$tmp/exported"))"
else
    bad "libxiri.so exports symbols not named xiri_*:"; head -n 20 "$tmp/foreign"
fi
# The static library: its objects see each other's names, so every global
# name they define must be one no program of a user would choose
# (src/lib/prefix.h gives the internal ones the prefix xiri__).
nm --defined-only -g "$libdir/libxiri.a" 2>/dev/null |
    awk 'NF == 3 && $2 ~ /^[A-Z]$/ {print $3}' | sort -u >"$tmp/static"
grep -v '^xiri_' "$tmp/static" |
    grep -v -E '^_*(asan|ubsan|gcov|sancov|llvm|odr_asan)' >"$tmp/static-foreign"
if [ -s "$tmp/static" ] && [ ! -s "$tmp/static-foreign" ]; then
    ok "libxiri.a defines only xiri_ names ($(wc -l <"$tmp/static"))"
else
    bad "libxiri.a defines global names not starting with xiri_ (add them to src/lib/prefix.h):"
    head -n 20 "$tmp/static-foreign"
fi
# The functions the header declares (XIRI_API ... name( ), each exported.
tr '\n' ' ' <"$top_srcdir/src/include/xiri.h" | grep -o 'XIRI_API[^;(]*(' |
    sed -n 's/.*[ *]\(xiri_[a-z0-9_]*\)[ ]*($/\1/p' | sort -u >"$tmp/declared"
if [ -s "$tmp/declared" ] && cmp -s "$tmp/declared" "$tmp/exported"; then
    ok "the $(wc -l <"$tmp/declared") functions of xiri.h are exactly the exports"
else
    bad "xiri.h declarations and libxiri.so exports differ (< declared, > exported):"
    diff "$tmp/declared" "$tmp/exported" | grep '^[<>]' | head -n 20
fi

# ---------------------------------------------------------------- globals
# libxiri(3) promises no hidden global state: no object of the library may
# hold writable data (.data, .bss) other than the thread-local counters of
# the allocation-failure hook (mem.c).  Instrumented builds add their own.
mkdir "$tmp/ar" && (cd "$tmp/ar" && ar x "$libdir/libxiri.a") || bad "ar x libxiri.a"
for o in "$tmp"/ar/*.o; do
    objdump -t "$o" | awk -v f="$(basename "$o")" '
        $NF !~ /^\./ && $NF !~ /^_*(asan|ubsan|gcov|sancov|llvm|__odr_asan)/ &&
        / \.(data|bss|tdata|tbss)[^ ]* / && !/\.rel\.ro/ && !/ \.tbss.* fail_(armed|countdown|count)$/ {
            print f ": " $NF }'
done >"$tmp/globals"
if [ ! -s "$tmp/globals" ]; then ok "no writable global data in libxiri.a"
else bad "writable global data in the library:"; cat "$tmp/globals"; fi

# ---------------------------------------------------------------- pkg-config
PKG_CONFIG_PATH=$pcdir
export PKG_CONFIG_PATH
if [ -n "$root" ]; then PKG_CONFIG_SYSROOT_DIR=$root; export PKG_CONFIG_SYSROOT_DIR; fi
cc=${CC:-cc}
# A library built with sanitizers or coverage needs them in the program.
san=
nm -D "$libdir/libxiri.so" | grep -q ' U __asan_' && san="$san -fsanitize=address"
nm -D "$libdir/libxiri.so" | grep -q ' U __ubsan_' && san="$san -fsanitize=undefined"
nm -D "$libdir/libxiri.so" | grep -q ' U __gcov_' && san="$san --coverage"
# Each line of example.out, by hand: the host of the parsed IRI as written;
# "a b" fails at the space, byte 1 (RFC 3987 2.2); RFC 3986 5.4.1 gives
# http://a/b/g for ../g; RFC 3987 3.1's example host xn--rsum-bpad and
# u-umlaut U+00FC = UTF-8 C3 BC; the space of the LEIRI at byte 20
# (7 for "http://", 11 for "example.org", 1 each for "/" and "a") is a
# LEIRI character (LEIRI Note, a warning in that profile); the version is
# the one pkg-config reports.
version=$(pkg-config --modversion libxiri)
cat >"$tmp/expected" <<EOF
host: résumé.example.org
parse "a b": not a valid reference at byte 1
resolved: http://a/b/g
uri: http://xn--rsum-bpad.example.org/D%C3%BCrst
check: warning leiri-char at byte 20
worst: warning
version: $version
EOF
# shellcheck disable=SC2046
# shellcheck disable=SC2086
if $cc -std=c11 -Wall -Wextra -Werror $san -o "$tmp/example" "$here/example.c" \
    $(pkg-config --cflags --libs libxiri) >"$tmp/cc.log" 2>&1; then
    ok "example.c builds with pkg-config --cflags --libs libxiri"
    if LD_LIBRARY_PATH=$libdir "$tmp/example" >"$tmp/got" 2>&1 && cmp -s "$tmp/expected" "$tmp/got"; then
        ok "the example prints the hand-derived results"
    else
        bad "the example's output differs:"; diff "$tmp/expected" "$tmp/got"
    fi
    if readelf -d "$tmp/example" | grep -q "NEEDED.*libxiri.so.$major"; then
        ok "the example needs libxiri.so.$major"
    else bad "the example does not need libxiri.so.$major"; fi
else
    bad "example.c does not build:"; cat "$tmp/cc.log"
fi
# Static: libxiri.a and the libraries of Requires.private.
slibs=$(pkg-config --static --libs libxiri | sed 's/\(^\| \)-lxiri\( \|$\)/ /')
# shellcheck disable=SC2046,SC2086
if $cc -std=c11 $san -o "$tmp/example-static" "$here/example.c" $(pkg-config --cflags libxiri) \
    "$libdir/libxiri.a" $slibs >"$tmp/cc.log" 2>&1; then
    if "$tmp/example-static" >"$tmp/got" 2>&1 && cmp -s "$tmp/expected" "$tmp/got" &&
        ! readelf -d "$tmp/example-static" | grep -q 'NEEDED.*libxiri'; then
        ok "example.c links statically with libxiri.a and pkg-config --static"
    else bad "the static example fails or still needs libxiri.so"; diff "$tmp/expected" "$tmp/got"; fi
else
    bad "example.c does not link with libxiri.a:"; cat "$tmp/cc.log"
fi

# ---------------------------------------------------------------- man pages
for page in man1/xiri.1 man3/libxiri.3; do
    [ -f "$mandir/$page" ] || continue
    if groff -man -ww -z "$mandir/$page" >"$tmp/groff" 2>&1 && [ ! -s "$tmp/groff" ]; then
        ok "$page passes groff -man -ww -z"
    else bad "$page: groff warnings:"; head -n 20 "$tmp/groff"; fi
done

# libxiri(3) shows example.c as it is.
if [ -f "$mandir/man3/libxiri.3" ]; then
    sed -n '/^\.SH EXAMPLE/,/^\.fi/p' "$mandir/man3/libxiri.3" | sed -n '/^\.nf/,/^\.fi/p' |
        sed -e '1d;$d' -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\e/\\/g' >"$tmp/man-example.c"
    if cmp -s "$tmp/man-example.c" "$here/example.c"; then ok "libxiri.3 shows example.c"
    else bad "the EXAMPLE of libxiri.3 differs from tests/install/example.c"; fi
fi

# ---------------------------------------------------------------- schemas
# samples/links.xhtml holds, by hand (README, xiri(1) EXAMPLES): four
# full-width letters (nfkc-variant), one Latin-1 escape (pct-not-utf8) and
# two spaces (leiri-char), all warnings; found only if the xhtml preset
# (html.xsd) loads.
unset XIRI_SCHEMA_DIR
if [ "$mode" = destdir ]; then
    # Staged under DESTDIR, the schemas are not where the binary was told
    # they would be; an installed xiri must then fail clearly, never read
    # the source tree's schemas/ behind the user's back.
    (cd "$top_srcdir" && LD_LIBRARY_PATH=$libdir "$bindir/xiri" check samples/links.xhtml) \
        >"$tmp/nodir.out" 2>"$tmp/nodir.err"
    st=$?
    if [ "$st" -eq 2 ] && grep -q "html.xsd is in none of the schema directories" "$tmp/nodir.err" &&
        ! grep -q "$top_srcdir" "$tmp/nodir.err"; then
        ok "a staged xiri does not fall back to the source tree's schemas"
    else
        bad "staged xiri without its schemas: status $st"; cat "$tmp/nodir.err"
    fi
    # ... while the uninstalled one in the build tree does (the README's
    # quick start runs build/xiri before any install)
    codes=$(cd "$top_srcdir" && "$abs_top_builddir/xiri" check --format=json samples/links.xhtml 2>/dev/null |
        sed -n 's/.*"code":"\([^"]*\)".*/\1/p' | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}')
    if [ "$codes" = "leiri-char=2 nfkc-variant=4 pct-not-utf8=1 " ]; then
        ok "the build-tree xiri finds the source schemas without XIRI_SCHEMA_DIR"
    else bad "build-tree xiri without XIRI_SCHEMA_DIR: codes '$codes'"; fi
    schema_env="XIRI_SCHEMA_DIR=$schemadir"
else
    schema_env="XIRI_SCHEMA_DIR="
fi
(cd "$top_srcdir" && env "$schema_env" LD_LIBRARY_PATH=$libdir "$bindir/xiri" check --format=json samples/links.xhtml) \
    >"$tmp/check.json" 2>"$tmp/check.err"
st=$?
codes=$(sed -n 's/.*"code":"\([^"]*\)".*/\1/p' "$tmp/check.json" | sort | uniq -c | awk '{printf "%s=%s ", $2, $1}')
if [ "$st" -eq 0 ] && [ "$codes" = "leiri-char=2 nfkc-variant=4 pct-not-utf8=1 " ]; then
    ok "installed xiri checks samples/links.xhtml (${schema_env})"
else
    bad "installed xiri check: status $st, codes '$codes'"; cat "$tmp/check.err"
fi
# Where it looks: the installed schema directory before the source tree's
# (a DESTDIR install is not there yet, so only the attempt is seen).
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
    (cd "$top_srcdir" && ASAN_OPTIONS=detect_leaks=0 LD_LIBRARY_PATH=$libdir strace -f -e trace=file -o "$tmp/trace" \
        "$bindir/xiri" check samples/links.xhtml) >/dev/null 2>&1
    first=$(grep -o '"[^"]*/html\.xsd"' "$tmp/trace" | head -n 1 | tr -d '"')
    if [ "$first" = "$inst_schemadir/html.xsd" ]; then
        ok "xiri looks for html.xsd in $inst_schemadir first"
    else bad "xiri looks for html.xsd first in '$first', not $inst_schemadir"; fi
    if [ "$mode" = installed ]; then
        if grep -q "open.*\"$inst_schemadir/html.xsd\", O_RDONLY.* = [0-9]" "$tmp/trace"; then
            ok "xiri reads html.xsd from $inst_schemadir"
        else bad "xiri does not read $inst_schemadir/html.xsd"; fi
    fi
else
    echo "NOTE: strace unusable here; the schema search order is not traced"
fi

echo "$checks checks, $failures failed"
[ "$failures" -eq 0 ]
