#!/bin/sh
# parse-thread.sh - --parse-thread=always gives the same bytes as never.
# With it, libxml2 parses a document's text (XML after the root's start
# tag, HTML from the start) on a thread of its own and the walker replays
# what it reported (walk.c, "the parser thread"): every output, message
# and exit status must be the one of the single thread.  The documents
# are generated here, big enough (1 to 2 MB) that the thread gets many
# jobs: an Atom feed with entities (one
# holding elements of IRI content, one external), xml:base chains,
# references, CDATA, processing instructions, comments, xsi:type and
# xsi:nil, empty elements, attributes with DTD defaults, findings; and
# variants that stop half-way: the text cut short (not well-formed), an
# undeclared entity, a start tag over the attribute limit, an invalid
# UTF-8 byte, and options that stop it (--max-entity-expansion,
# --max-depth); an HTML page with every kind of text element, open
# quotes in text, foreign content, templates and bases, in UTF-8,
# Shift_JIS and windows-1252 (a late <meta>), and cut in a tag, in a
# style, by <plaintext> and by an invalid byte; a page of dense markup
# (more tags to a step than the guard's log holds, each a closed by
# libxml2 from inside the next a's tag).  Each is run through
# check (text and JSON), links --format=json and rewrite (to URIs, and to
# IRIs with --resolve).  The benchmark's XHTML and HTML5 pages
# (bench/gen_docs.py, 1 MB) too.
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
# HTML, parsed on the thread from its first step: every place where the
# walker and libxml2 must agree on what is text (script, style, title,
# textarea, plaintext: the guard asks libxml2 there), foreign content,
# the first <base>, unquoted values with a quote (libxml2 2.9 waits for
# the next quote: the walker unsticks it), attributes without a value
def page(i):
    return '\n'.join([
        '<div id=s%d><a href="p%d.html?q=1&amp;r=%d&eacute;" ping="/p1 /p2">a</a>' % (i, i, i),
        '<img src=i%d.png alt=don\'t srcset="a%d.png 1x, b%d.png 2x">' % (i, i, i),
        '<img src="j%d.png" alt="x" ismap>' % i,
        '<script>var s = "</scr" + "ipt><a href=no%d>"; if (a < b) {}</script>' % i,
        '<script src=s%d.js /><a href="no%d"></a></script>' % (i, i),
        '<style>.c%d { background: url("bg%d.png") } a[x="</a>"] {}</style>' % (i, i),
        '<title>t <a href="no%d">x</a></title>' % i,
        '<textarea><a href="no%d"></a></textarea>' % i,
        # (quotes left open in text: the guard asks libxml2 what it read)
        '<title>Q&A: <b class="x</title><a href="q%d">1</a>' % i,
        '<textarea>say <i title=\'x</TEXTAREA ><a href="q%d">2</a>' % i,
        '<xmp><p class="</xmp><a href="q%d">3</a><style>p{}</b><a href="no%d"></style>' % (i, i),
        '<span style="background: url(st%d.png)">x</span>' % i,
        '<svg><a xlink:href="sv%d.svg"><image href="im%d.png"/></a><style>@import "sv%d.css";</style>'
        '<foreignObject><a href="fo%d">x</a></foreignObject></svg>' % (i, i, i, i),
        '<math><mi><a href="mi%d">m</a></mi><annotation-xml encoding="text/html"><a href="an%d">x</a>'
        '</annotation-xml></math>' % (i, i),
        '<template><base href="http://not.example/"><a href="t%d">x</a></template>' % i,
        '<!-- <a href="comment%d"> --><![if !IE]><a href="ie%d">x</a><![endif]>' % (i, i),
        '<image src="x%d.png"><iframe src="f%d.html"></iframe>' % (i, i),
        '<form action=/f%d?x=%d method=post><input type=image src=in%d.png formaction=fa%d></form>' % (i, i, i, i),
        '<a href=" bad path %d%%zz">b</a><a href="http://b&#xFC;cher.example/%d">c</a></div>\n' % (i, i)])
HHEAD = ('<!DOCTYPE html>\n<html><head><meta charset="%s">\n'
         '<meta http-equiv=refresh content="5; url=r.html">\n'
         '<base href="http://h.example/d/"><base href="http://second.example/">\n'
         '</head><body>\n')
hbody = [page(i) for i in range(2500)]
def hwrite(name, parts, enc='utf-8', tail='</body></html>\n'):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(''.join(parts).encode(enc, 'xmlcharrefreplace') + tail.encode(enc))
hhalf = len(hbody) // 2
hwrite('page.html', [HHEAD % 'utf-8'] + hbody)
hwrite('sjis.html', [HHEAD % 'Shift_JIS'] + ['<a href="\u6771\u4eac%d">t</a>' % i + p for i, p in enumerate(hbody)], enc='shift_jis')
hwrite('cp1252.html', ['<html><head><title>x</title></head><body>'] + hbody[:hhalf] +
       ['<meta charset="windows-1252"><a href="caf\u00e9">x</a>'] + hbody[hhalf:], enc='cp1252')
hwrite('tagcut.html', [HHEAD % 'utf-8'] + hbody[:hhalf] + ['<a href="x" title=\'t'], tail='')
hwrite('stylecut.html', [HHEAD % 'utf-8'] + hbody[:hhalf] + ['<style>a { background: url(u.png) }'], tail='')
hwrite('plaintext.html', [HHEAD % 'utf-8'] + hbody[:hhalf] + ['<plaintext>'] + hbody[hhalf:])
hwrite('dense.html', ['<html><body>'] + ['<a href="d%d">t<br>' % i for i in range(60000)])
with open(os.path.join(out, 'badbyte.html'), 'wb') as f:
    f.write(((HHEAD % 'utf-8') + ''.join(hbody[:hhalf])).encode() + b'<a href="x\xff\xfe">' +
            ''.join(hbody[hhalf:]).encode())
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
for f in feed.xml cut.xml undeclared.xml attrs.xml badbyte.xml deep.xml refs.xml \
    cdataend1.xml cdataend2.xml cdataend3.xml page.html sjis.html cp1252.html \
    tagcut.html stylecut.html plaintext.html badbyte.html dense.html; do
    d=$tmp/$f
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
# the benchmark's pages
for d in "$tmp"/xhtml-1.xhtml "$tmp"/html5-1.html; do
    run "$(basename "$d")" "$d" check
    run "$(basename "$d")" "$d" links --format=json
    run "$(basename "$d")" "$d" rewrite --resolve
done
# the documents must say something: links, findings and each stop
"$XIRI" links --format=json --parse-thread=always "$tmp/feed.xml" 2>/dev/null | python3 -c '
import json, sys
links = [json.loads(l) for l in sys.stdin]
# by hand, of the 4000 entries: xml:base, id, two link/@href, uri, a/@href,
# img/@src, v (xsi:type) and <icon/> each (n is nil, logo holds an
# external entity: none), 572 more link/@href (i % 7), 80 icons from
# &loc; (i % 50), and the feed'"'"'s xml:base
assert len(links) == 4000 * 9 + 572 + 80 + 1, len(links)
assert any(l["value"] == "http://i.example/\u00e9" for l in links), "the entity content"
assert any(l["element"] == "v" for l in links), "xsi:type"
' || { echo "FAIL: feed.xml: the links are not all there"; fails=$((fails + 1)); }
"$XIRI" links --format=json --parse-thread=always "$tmp/page.html" 2>/dev/null | python3 -c '
import json, sys
links = [json.loads(l) for l in sys.stdin]
values = set(l["value"] for l in links)
for v in ("p7.html?q=1&r=7\u00e9", "i7.png", "b7.png", "s7.js", "bg7.png", "st7.png", "sv7.svg", "sv7.css",
          "fo7", "mi7", "an7", "t7", "ie7", "x7.png", "f7.html", "fa7", "r.html", "q7"):
    assert v in values, v
for v in ("no7", "comment7"):
    assert v not in values, v
base = [l for l in links if l["value"] == "i7.png"][0]["base"]
assert base == "http://h.example/d/", base
' || { echo "FAIL: page.html: the links are not all there"; fails=$((fails + 1)); }
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
