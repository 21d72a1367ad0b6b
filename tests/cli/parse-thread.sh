#!/bin/sh
# parse-thread.sh - --parse-thread=always gives the same bytes as never.
# With it, libxml2 parses an XML document's text after the root's start
# tag on a thread of its own and the walker replays what it reported
# (walk.c, "the parser thread"): every output, message and exit status
# must be the one of the single thread.  The documents are generated
# here, big enough (1 to 2 MB) that the thread takes over after the
# first 64 KiB and gets many jobs: an Atom feed with entities (one
# holding elements of IRI content, one external), xml:base chains,
# references, CDATA, processing instructions, comments, xsi:type and
# xsi:nil, empty elements, attributes with DTD defaults, findings; and
# variants that stop half-way: the text cut short (not well-formed), an
# undeclared entity, a start tag over the attribute limit, an invalid
# UTF-8 byte, and options that stop it (--max-entity-expansion,
# --max-depth).  Each is run through check (text and JSON), links
# --format=json and rewrite (to URIs, and to IRIs with --resolve).  The
# benchmark's XHTML and HTML5 pages (bench/gen_docs.py, 1 MB) too.
#
# Environment: XIRI, the command to run; top_srcdir, the source tree.
# Exits 77 (skipped) without python3.

LC_ALL=C
export LC_ALL

if [ -z "${XIRI:-}" ]; then
    XIRI=$PWD/xiri
fi
if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")/../.." && pwd) || exit 99
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: parse-thread.sh: python3 is missing"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/xiri-pt.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT

python3 - "$tmp" <<'EOF' || exit 99
import os, sys
out = sys.argv[1]
HEAD = '''<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE feed [
<!ENTITY host "example.org">
<!ENTITY path "a&#x2F;b">
<!ENTITY loc "<icon>http://i.example/&#xE9;</icon>">
<!ENTITY ext SYSTEM "ext.xml">
<!ATTLIST link rel CDATA "alternate">
]>
<feed xmlns="http://www.w3.org/2005/Atom"
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
      xmlns:xs="http://www.w3.org/2001/XMLSchema"
      xml:base="http://&host;/base/">
<title>t</title>
'''
def entry(i):
    e = ['<entry xml:base="d%d/">' % i,
         '  <id>urn:uuid:%d-&host;</id>' % i,
         '  <link href="p%d.html?q=&amp;x&#233;&path;"/>' % i,
         '  <link rel="self" href=\'http://b&#xFC;cher.example/%d\'/>' % i,
         '  <uri>  relative/%d  </uri>' % i,
         '  <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">'
         '<a href="x%d#f">t</a> <img src="&#x6771;%d.png"/></div></content>' % (i, i),
         '  <?pi data %d?><!-- comment %d -->' % (i, i),
         '  <v xsi:type="xs:anyURI">http://v/%d</v>' % i,
         '  <n xsi:type="xs:anyURI" xsi:nil="true"/>',
         '  <icon/>',
         '  <summary><![CDATA[ <a href="no"> ]]> text</summary>']
    if i % 7 == 0:
        e.append('  <link href="bad path %d%%zz"/>' % i)
    if i % 50 == 0:
        e.append('  &loc;')
    if i % 97 == 0:
        e.append('  <logo>&ext;</logo>')
    e.append('</entry>\n')
    return '\n'.join(e)
body = [entry(i) for i in range(4000)]
def write(name, parts, tail='</feed>\n', raw=None):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(''.join(parts).encode('utf-8'))
        if raw:
            f.write(raw)
        f.write(tail.encode('utf-8'))
write('feed.xml', [HEAD] + body)
half = len(body) // 2
write('cut.xml', [HEAD] + body[:half] + ['<entry><link href="x'], tail='')
write('undeclared.xml', [HEAD] + body[:half] + ['<entry><id>&nope;</id></entry>\n'] + body[half:])
write('attrs.xml', [HEAD] + body[:half] + ['<entry ' + ' '.join('a%d="v"' % k for k in range(1001)) + '/>\n'] + body[half:])
write('badbyte.xml', [HEAD] + body[:half] + ['<entry><id>urn:x:'], raw=b'\xff\xfe</id></entry>\n' + ''.join(body[half:]).encode('utf-8'))
write('deep.xml', [HEAD] + body[:half] + ['<entry><a><b><c><d><e/></d></c></b></a></entry>\n'] + body[half:])
# 6000 entity references in one 16 KiB piece make more records than the
# queues hold: the first thread must read them while it waits (it hung)
with open(os.path.join(out, 'refs.xml'), 'w') as f:
    f.write('<!DOCTYPE r [<!ENTITY e "x">]>\n<r>' + 'y' * 70000 + '&e;' * 6000 + 'z' * 60000 + '<id>urn:x</id></r>\n')
# "]]>" in text (XML 1.0 2.4) far into the document, and where a cut of
# the text would have fallen (libxml2 2.9 missed it when cut after "]")
for k, text in ((1, '<p>x</p>' * 9000 + 'y' * 9915), (2, '<p>x</p>' * 9000 + 'y' * 17997),
                (3, 'y' * 59067)):
    with open(os.path.join(out, 'cdataend%d.xml' % k), 'w') as f:
        f.write('<r>' + text + ']]>' + 'z' * 50000 + '</r>\n')
EOF
python3 "$top_srcdir/bench/gen_docs.py" -o "$tmp" --sizes 1 xhtml html5 >/dev/null || exit 99

# (a hang is a failure: the parser thread once waited for the first)
to=
command -v timeout >/dev/null 2>&1 && to="timeout 120"
fails=0
n=0
# run NAME FILE ARGS...: the command with --parse-thread=never and always
run() {
    name=$1 file=$2
    shift 2
    $to "$XIRI" "$@" --parse-thread=never "$file" >"$tmp/n.out" 2>"$tmp/n.err"
    echo "exit $?" >>"$tmp/n.err"
    $to "$XIRI" "$@" --parse-thread=always "$file" >"$tmp/a.out" 2>"$tmp/a.err"
    echo "exit $?" >>"$tmp/a.err"
    n=$((n + 1))
    if ! cmp -s "$tmp/n.out" "$tmp/a.out" || ! cmp -s "$tmp/n.err" "$tmp/a.err"; then
        echo "FAIL: $name: xiri $* differs with --parse-thread=always"
        diff "$tmp/n.out" "$tmp/a.out" | head -n 5
        diff "$tmp/n.err" "$tmp/a.err" | head -n 5
        fails=$((fails + 1))
    fi
}
# every document, every command
for f in feed cut undeclared attrs badbyte deep refs cdataend1 cdataend2 cdataend3; do
    d=$tmp/$f.xml
    run "$f" "$d" check
    run "$f" "$d" check --format=json
    run "$f" "$d" links --format=json
    run "$f" "$d" rewrite
    run "$f" "$d" rewrite --to=iri --resolve
done
# options that stop the walk half-way
run "feed, entity budget" "$tmp/feed.xml" check --max-entity-expansion=40000
run "feed, entity budget" "$tmp/feed.xml" links --format=json --max-entity-expansion=40000
run "deep, depth limit" "$tmp/deep.xml" check --max-depth=5
run "deep, depth limit" "$tmp/deep.xml" rewrite --max-depth=5
# the benchmark's pages (HTML is parsed on the calling thread either way)
for d in "$tmp"/xhtml-1.xhtml "$tmp"/html5-1.html; do
    run "$(basename "$d")" "$d" check
    run "$(basename "$d")" "$d" links --format=json
    run "$(basename "$d")" "$d" rewrite --resolve
done
# the documents must say something: links, findings and each stop
"$XIRI" links --format=json --parse-thread=always "$tmp/feed.xml" 2>/dev/null | python3 -c '
import json, sys
links = [json.loads(l) for l in sys.stdin]
assert len(links) > 36000, len(links)
assert any(l["value"] == "http://i.example/\u00e9" for l in links), "the entity content"
assert any(l["element"] == "v" for l in links), "xsi:type"
' || { echo "FAIL: feed.xml: the links are not all there"; fails=$((fails + 1)); }
# each stops half-way: after the thread took over
for f in cut undeclared attrs; do
    "$XIRI" check -q --parse-thread=always "$tmp/$f.xml" >/dev/null 2>"$tmp/err"
    st=$?
    line=$(sed -n 's/^xiri: [^:]*:\([0-9]*\):.*/\1/p' "$tmp/err" | head -n 1)
    if [ $st -ne 2 ] || [ "${line:-0}" -lt 20000 ]; then
        echo "FAIL: $f.xml: check exits $st at line ${line:-?}, want 2 past line 20000"
        fails=$((fails + 1))
    fi
done
for f in cdataend1 cdataend2 cdataend3; do
    for m in never always; do
        "$XIRI" check -q --parse-thread=$m "$tmp/$f.xml" >/dev/null 2>"$tmp/err"
        st=$?
        if [ $st -ne 2 ] || ! grep -q "Sequence ']]>' not allowed" "$tmp/err"; then
            echo "FAIL: $f.xml: --parse-thread=$m exits $st without the ']]>' error"
            fails=$((fails + 1))
        fi
    done
done
"$XIRI" check --parse-thread=always "$tmp/badbyte.xml" 2>&1 | grep -q 'invalid-byte' ||
    { echo "FAIL: badbyte.xml: no invalid-byte finding"; fails=$((fails + 1)); }
echo "parse-thread: $n comparisons, $fails failed"
[ "$fails" -eq 0 ]
