#!/bin/sh
# hostile.sh - hostile and broken documents (issue 5): each must end with
# a clear error or a bounded result, never a crash, a hang or unbounded
# memory.  Every document is generated here (python3), in a temporary
# directory; each run of the tool is limited in time (timeout) and, when
# the binary allows it, in memory (ulimit -v; an ASan binary cannot run
# under it, nor a valgrind wrapper, so there is no cap then).  Each case
# asserts the exit status and a key part of the message, and that the
# content of a local file named by an external entity or DTD never shows.
#
# Environment: XIRI, the command to run; top_srcdir, the source tree.
# Prints one line per case and "N passed, N failed"; exits 1 when a case
# failed, 77 (skipped) without python3 or timeout.
#
# Measured with libxml2 2.9.14 (x86-64, -O2): a normal run needs about
# 45 MB of address space; the worst cases below (a construct just under
# the default --max-markup, 16 MiB, in windows-1252) about 350 MB.  The
# cap, 512 MiB, catches unbounded growth: before the limits, the 100 MB
# attribute took 1.1 GB and HTML held whole documents.

LC_ALL=C
export LC_ALL
unset LANG LANGUAGE 2>/dev/null

if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
fi
if [ -z "${XIRI:-}" ]; then
    XIRI=$PWD/xiri
fi

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: hostile.sh: python3 is missing (it generates the documents)"
    exit 77
fi
if ! command -v timeout >/dev/null 2>&1; then
    echo "SKIP: hostile.sh: timeout (GNU coreutils) is missing"
    exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/xiri-hostile.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 99' HUP INT TERM

# Seconds a case may take: far above any case (the slowest takes about a
# second, three under ASan), far below a hang.
limit_s=30
cap_kb=524288
cap=yes
if [ -n "${ASAN_OPTIONS:-}" ]; then
    cap=no
elif ! sh -c 'ulimit -v "$1" && shift && exec "$@" --version' sh "$cap_kb" \
    $XIRI >/dev/null 2>&1; then
    cap=no
fi
if [ "$cap" = no ]; then
    echo "# no memory cap: the binary does not run under ulimit -v" \
        "(sanitizers or a wrapper)"
fi

now_ms() {
    t=$(date +%s%N 2>/dev/null)
    case $t in
        *N | '') echo 0 ;;
        *) echo $((t / 1000000)) ;;
    esac
}

secret="XIRI-SECRET-$$-$(now_ms)"
printf '%s\n' "$secret" >"$work/secret.txt"
printf '<!ENTITY eacute "%s">\n' "$secret" >"$work/secret.dtd"

# The generator: python3 gen.py DIR NAME writes DIR/NAME.
cat >"$work/gen.py" <<'EOF'
import os, sys

d, name = sys.argv[1], sys.argv[2]
secret = open(os.path.join(d, "secret.txt")).read().strip()
XL = 'xmlns:xlink="http://www.w3.org/1999/xlink"'
ATOM = 'xmlns="http://www.w3.org/2005/Atom"'
MB = 1 << 20


def out(data):
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def laughs(use):
    ents = '<!ENTITY lol "lol">\n' + "".join(
        '<!ENTITY lol%d "%s">\n' % (i, ("&lol%d;" % (i - 1) if i > 1
                                        else "&lol;") * 10)
        for i in range(1, 10))
    return '<?xml version="1.0"?>\n<!DOCTYPE r [\n%s]>\n%s\n' % (ents, use)


def html(body, charset="utf-8"):
    return "<!DOCTYPE html><meta charset=%s><body>%s</body>" % (charset, body)


def attrs(n, xml):
    fmt = ' a%d=""' if xml else " a%d"
    return "".join(fmt % i for i in range(n))


g = {
    "laughs-attr.xml": lambda: laughs(
        '<r %s><a xlink:href="http://e/&lol9;"/></r>' % XL),
    "laughs-atom.xml": lambda: laughs(
        '<feed %s><id>http://e/&lol9;</id></feed>' % ATOM),
    "quadratic-content.xml": lambda: (
        '<!DOCTYPE r [<!ENTITY a "%s">]>\n<r>%s</r>\n'
        % ("a" * 500000, "&a;" * 50000)),
    "quadratic-attr.xml": lambda: (
        '<!DOCTYPE r [<!ENTITY a "%s">]>\n<r %s><a xlink:href="%s"/></r>\n'
        % ("a" * 50000, XL, "&a;" * 50000)),
    "xxe-file.xml": lambda: (
        '<!DOCTYPE feed [<!ENTITY f SYSTEM "file://%s/secret.txt">\n'
        '<!ENTITY %% p SYSTEM "file://%s/secret.txt"> %%p;]>\n'
        '<feed %s><id>&f;</id><link href="x"/></feed>\n' % (d, d, ATOM)),
    "xxe-url.xml": lambda: (
        '<!DOCTYPE feed [<!ENTITY u SYSTEM "http://127.0.0.1:9/x">]>\n'
        '<feed %s><id>&u;</id><link href="x"/></feed>\n' % ATOM),
    "dtd-file.xhtml": lambda: (
        '<!DOCTYPE html SYSTEM "file://%s/secret.dtd">\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><body>'
        '<a href="caf&eacute;">x</a></body></html>\n' % d),
    "dtd-url.xhtml": lambda: (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
        '"http://127.0.0.1:9/xhtml1-strict.dtd">\n'
        '<html xmlns="http://www.w3.org/1999/xhtml"><body>'
        '<a href="caf&eacute;">x</a></body></html>\n'),
    "deep.xml": lambda: "<r>" + "<e>" * 100000 + "</e>" * 100000 + "</r>",
    "deep.html": lambda: html("<div>" * 100000 + '<a href="x">x</a>'),
    "unmatched.html": lambda: html(
        "<div>" * 500 + "</span>" * 200000 + '<a href="x">x</a>'),
    "attr-100mb.html": lambda: html('<a href="http://e/%s">x</a>'
                                    % ("a" * (100 * MB))),
    "attr-100mb.xml": lambda: '<r %s><a xlink:href="http://e/%s"/></r>' % (
        XL, "a" * (100 * MB)),
    "iri-10mb.html": lambda: html('<a href="http://e/%s">x</a>'
                                  % ("a" * (10 * MB))),
    "iri-10mb.xml": lambda: '<r %s><a xlink:href="http://e/%s"/></r>' % (
        XL, "a" * (10 * MB)),
    "attrs-1m.html": lambda: html('<a%s href="x">x</a>'
                                  % attrs(1000000, False)),
    "attrs-1m.xml": lambda: '<r %s><a%s xlink:href="x"/></r>' % (
        XL, attrs(1000000, True)),
    "attrs-script.html": lambda: html(
        "<script t=a'b></b><x y='\"> </script><b%s>'>" % attrs(1001, False)),
    "namespaces.xml": lambda: "<r%s><e%s><e xmlns:q='urn:q'/></e></r>" % (
        "".join(" xmlns:p%d='urn:x'" % i for i in range(500)),
        "".join(" xmlns:p%d='urn:x'" % i for i in range(500, 1000))),
    "defaults.xml": lambda: "<!DOCTYPE r [<!ATTLIST e%s>]><r>%s</r>" % (
        "".join(" d%d CDATA 'x'" % i for i in range(4000)), "<e/>" * 2000),
    "comment.xml": lambda: "<r><!--%s--></r>" % ("c" * (2 * MB)),
    "comment.html": lambda: html("<!--%s-->" % ("c" * (2 * MB))),
    "text.html": lambda: html("<p>" + "t" * (2 * MB)),
    "script.html": lambda: html("<script>%s</script>" % ("s" * (2 * MB))),
    "list.html": lambda: html('<a ping="%s">x</a>'
                              % " ".join("p%d" % i for i in range(100000))),
    "bad-sjis.xml": lambda: (
        b'<?xml version="1.0" encoding="Shift_JIS"?>\n'
        b'<r xmlns:xlink="http://www.w3.org/1999/xlink">'
        b'<a xlink:href="x\x81\x20y\xa0z\xff"/></r>\n'),
    "bad-utf8.html": lambda: (
        b'<!DOCTYPE html><meta charset="utf-8">'
        b'<a href="x\xc3\x28y\xed\xa0\x80z">t</a>\n'),
    "bom-conflict.xml": lambda: (
        b'\xef\xbb\xbf<?xml version="1.0" encoding="ISO-8859-1"?>\n<r/>\n'),
    "bom16-conflict.xml": lambda: (
        '\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<r/>\n'
        .encode("utf-16-le")),
    "truncated.xml": lambda: '<r %s><a xlink:href="x"/><b>' % XL,
    "truncated-tag.xml": lambda: '<r %s><a xlink:href="x' % XL,
    "truncated.html": lambda: '<!DOCTYPE html><p><a href="x">t</a><a href="y',
    "nul.xml": lambda: b'<r>\x00</r>',
    "nul.html": lambda: b'<!DOCTYPE html><meta charset=utf-8>'
                        b'<a href="x\x00y">t</a>',
    "odd-utf16.xml": lambda: (
        '\ufeff<?xml version="1.0" encoding="UTF-16"?><r/>'
        .encode("utf-16-le") + b"A"),
    "odd-utf16.html": lambda: (
        '\ufeff<!DOCTYPE html><a href="x">t</a>'.encode("utf-16-le") + b"A"),
    "unknown-enc.xml": lambda: '<?xml version="1.0" encoding="x-no-such"?><r/>',
    "unknown-enc.html": lambda: html('<a href="x">t</a>', "x-no-such"),
    "plain.xml": lambda: '<r %s><a xlink:href="http://e/x"/></r>' % XL,
}
out(g[name]())
EOF

gen() {
    python3 "$work/gen.py" "$work" "$1" || {
        echo "hostile.sh: could not generate $1" >&2
        exit 99
    }
}

pass=0
fail=0

# check NAME STATUS EXPECT FILE [OPTION...]: run "xiri check" (or "xiri
# links" or "xiri rewrite" when NAME starts with "links:" or "rewrite:")
# on the generated FILE.
check() {
    name=$1 want=$2 expect=$3 file=$4
    shift 4
    cmd=check
    case $name in links:*) cmd=links ;; rewrite:*) cmd=rewrite ;; esac
    [ -f "$work/$file" ] || gen "$file"
    t0=$(now_ms)
    (
        if [ "$cap" = yes ]; then
            ulimit -v "$cap_kb" || exit 98
        fi
        # $XIRI is split on purpose (wrappers)
        exec timeout "$limit_s" $XIRI $cmd "$@" "$work/$file"
    ) >"$work/out" 2>"$work/err"
    status=$?
    t1=$(now_ms)
    why=
    if [ "$status" -eq 124 ]; then
        why=", timed out after ${limit_s}s"
    elif [ "$status" -ne "$want" ]; then
        why=", exit status $status (want $want)"
    fi
    if [ -n "$expect" ] &&
        ! grep -F -q -e "$expect" "$work/out" "$work/err"; then
        why="$why, no \"$expect\" in the output"
    fi
    if grep -F -q -e "$secret" "$work/out" "$work/err"; then
        why="$why, the content of a local file shows in the output"
    fi
    if [ -z "$why" ]; then
        pass=$((pass + 1))
        echo "PASS: $name ($((t1 - t0)) ms)"
    else
        fail=$((fail + 1))
        echo "FAIL: $name (${why#, })"
        sed -n '1,3p' "$work/err" | cut -c1-200 | sed 's/^/#   /'
    fi
    case $file in *100mb* | *10mb* | *1m*) rm -f "$work/$file" ;; esac
}

# Entities: libxml2 stops "billion laughs" itself; the quadratic
# blow-up (a big entity referred to many times) is bounded by
# --max-entity-expansion, as libxml2 reads the text again at every
# reference.
loop="entity references loop, or expand far more than the document"
check laughs-attr 2 "$loop" laughs-attr.xml
check laughs-content 2 "$loop" laughs-atom.xml
check quadratic-content 2 \
    "expand to more than 67108864 bytes; raise --max-entity-expansion" \
    quadratic-content.xml
check quadratic-attr 2 "expand to more than 67108864 bytes" quadratic-attr.xml
check quadratic-option 2 \
    "expand to more than 1048576 bytes" \
    quadratic-content.xml --max-entity-expansion=1M

# External entities and DTDs are never read (file or network): the
# values that need them are not checked, and said so.
check xxe-file 0 "refers to the entity &f;, which is external" xxe-file.xml
check links:xxe-file 0 "refers to the entity &f;" xxe-file.xml
check xxe-url 0 "refers to the entity &u;, which is external" xxe-url.xml
check dtd-file 0 "refers to the entity &eacute;" dtd-file.xhtml
check dtd-url 0 "refers to the entity &eacute;" dtd-url.xhtml

# Nesting
check deep-xml 2 \
    "<e> is nested deeper than 512 elements; raise --max-depth" deep.xml
check deep-html 2 "<div> is nested deeper than 512 elements" deep.html
check deep-option 0 "" deep.xml --max-depth=100001
check unmatched-end-tags 0 "" unmatched.html

# Sizes: values over --max-value are not checked; a construct over
# --max-markup stops the file (libxml2 refuses XML values over 10000000
# bytes whatever the options)
check attr-100mb-html 2 \
    "1:42: a start tag longer than 16777216 bytes; raise --max-markup" \
    attr-100mb.html
check attr-100mb-xml 2 \
    "1:47: a start tag longer than 16777216 bytes" attr-100mb.xml
check iri-10mb-html 0 "longer than the limit of 1048576 bytes" iri-10mb.html
check iri-10mb-xml 2 \
    "over a limit libxml2 sets for XML: AttValue length too long" iri-10mb.xml
check value-option 0 "longer than the limit of 8 bytes" plain.xml --max-value=8
check comment-xml 2 \
    "a comment longer than 1048576 bytes" comment.xml --max-markup=1M
check comment-html 2 \
    "a comment longer than 1048576 bytes" comment.html --max-markup=1M
check text-html 2 \
    "a run of text longer than 1048576 bytes" text.html --max-markup=1M
check script-html 2 \
    "a run of text longer than 1048576 bytes" script.html --max-markup=1M
check links:list-100000 0 "p99999" list.html

# Attributes: libxml2 compares each with all the others of its tag
check attrs-1m-html 2 \
    "start tag <a> has more than 1000 attributes; raise --max-attributes" \
    attrs-1m.html
check attrs-1m-xml 2 "start tag <a> has more than 1000 attributes" attrs-1m.xml
check attrs-in-script 2 \
    "start tag <b> has more than 1000 attributes" attrs-script.html
check namespaces 2 \
    "more than 1000 namespace declarations in scope" namespaces.xml
check namespaces-option 0 "" namespaces.xml --max-namespaces=1001
check default-attributes 2 \
    "more than 100 attributes with a default for <e>" defaults.xml

# Encodings
check bad-shift-jis 0 \
    "2:63: warning: byte 81 at offset 105 is not valid Shift_JIS" bad-sjis.xml
check bad-utf-8 0 "byte C3 at offset 47 is not valid UTF-8" bad-utf8.html
check bom-conflict 0 \
    "the byte order mark says UTF-8 but the document declares \"ISO-8859-1\"" \
    bom-conflict.xml
check bom16-conflict 0 \
    "the byte order mark says UTF-16LE but the document declares \"UTF-8\"" \
    bom16-conflict.xml
check odd-utf16-xml 2 "byte 41 at offset" odd-utf16.xml
check odd-utf16-html 0 \
    "1:33: warning: byte 41 at offset 66 is not valid UTF-16LE" odd-utf16.html
check unknown-option 2 \
    "unknown encoding \"foo\" (from the option); name one that ICU knows" \
    plain.xml --encoding=foo
check unknown-declared-xml 2 \
    "unknown encoding \"x-no-such\" (from the XML declaration)" unknown-enc.xml
# a <meta> label that is none of WHATWG Encoding's: ignored, as browsers
# do, and the page sniffed
check unknown-declared-html 0 \
    "declares no encoding; read as windows-1252" unknown-enc.html

# Broken documents: XML stops where it breaks, HTML recovers
check truncated-xml 2 "truncated.xml:1:" truncated.xml
check truncated-tag-xml 2 "not well-formed" truncated-tag.xml
# the tag cut by the end is dropped, as browsers drop it (eof-in-tag)
check links:truncated-html 0 "truncated.html:1:36: warning: the document ends inside this tag" truncated.html --encoding=utf-8

# rewrite reads documents with the same walker and the same limits (its
# --max-* options): the same documents fail the same way, nothing of
# them is written, and no external entity is ever read into the output
check rewrite:laughs 2 "$loop" laughs-attr.xml
check rewrite:quadratic-option 2 \
    "expand to more than 1048576 bytes; raise --max-entity-expansion" \
    quadratic-content.xml --max-entity-expansion=1M
check rewrite:xxe-file 0 "refers to the entity &f;, which is external" \
    xxe-file.xml
check rewrite:dtd-url 0 "refers to the entity &eacute;" dtd-url.xhtml
check rewrite:deep-xml 2 \
    "<e> is nested deeper than 512 elements; raise --max-depth; nothing" \
    deep.xml
check rewrite:deep-option 0 "" deep.xml --max-depth=100001
check rewrite:attr-100mb-html 2 \
    "1:42: a start tag longer than 16777216 bytes; raise --max-markup" \
    attr-100mb.html
check rewrite:iri-10mb-html 0 "longer than the limit of 1048576 bytes" \
    iri-10mb.html
check rewrite:comment-html 2 \
    "a comment longer than 1048576 bytes" comment.html --max-markup=1M
check rewrite:attrs-1m-xml 2 \
    "start tag <a> has more than 1000 attributes; raise --max-attributes" \
    attrs-1m.xml
check rewrite:namespaces 2 \
    "more than 1000 namespace declarations in scope" namespaces.xml
check rewrite:namespaces-option 0 "" namespaces.xml --max-namespaces=1001
check rewrite:default-attributes 2 \
    "more than 100 attributes with a default for <e>" defaults.xml
check rewrite:nul-xml 2 "1:4: not well-formed: Char 0x0 out of allowed range" \
    nul.xml
check nul-xml 2 "1:4: not well-formed: Char 0x0 out of allowed range" nul.xml
check nul-html 0 \
    "1:46: warning: a NUL character at offset 45 is not allowed in HTML" \
    nul.html

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
