#!/usr/bin/env python3
# precision.py - how precise the mojibake and double-pct checks are on the
# shared corpus (HACKING.md records the figures).  Not part of make check:
#     python3 tests/corpus/precision.py BUILDDIR/xiri ../shared/corpus/chardet
# Each file is decoded with python3 in its folder's true encoding, and
# three sets of strings are checked as link values (one XML document each,
# xiri check --attr=u):
#  1. every URL-like string: href/src/url/about/resource attribute values,
#     link/guid/comments/docs/url content and http(s) URLs in the text, also
#     inside escaped HTML (the text is unescaped twice);
#  2. every distinct word holding a non-ASCII character in the text (real
#     text in about 30 scripts: none of it is mojibake unless it says so);
#  3. the same words damaged the way the check looks for (python3:
#     w.encode('utf-8') read as windows-1252, the five bytes it leaves
#     undefined as the C1 controls of the same value), for recall.
# Prints the counts and every finding of sets 1 and 2, to be read by hand.
import html, json, os, re, subprocess, sys, tempfile

ENC = {'IBM855': 'cp855', 'IBM866': 'cp866', 'MacCyrillic': 'mac_cyrillic', 'TIS-620': 'tis_620',
       'iso-8859-2-hungarian': 'iso8859_2', 'iso-8859-5-bulgarian': 'iso8859_5',
       'iso-8859-5-russian': 'iso8859_5', 'iso-8859-6-arabic': 'iso8859_6',
       'iso-8859-7-greek': 'iso8859_7', 'iso-8859-9-turkish': 'iso8859_9',
       'windows-1250-hungarian': 'cp1250', 'windows-1251-bulgarian': 'cp1251',
       'windows-1251-russian': 'cp1251', 'windows-1254-turkish': 'cp1254',
       'windows-1255-hebrew': 'cp1255', 'windows-1256-arabic': 'cp1256'}
xiri, root = sys.argv[1].split(), sys.argv[2]


def xml_ok(v):
    return ''.join(c for c in v if c in '\t\n\r' or (ord(c) >= 0x20 and not 0xD800 <= ord(c) <= 0xDFFF
                                                      and ord(c) not in (0xFFFE, 0xFFFF)))


def damage(w):
    return ''.join(bytes([b]).decode('cp1252', errors='ignore') or chr(b) for b in w.encode('utf-8'))


urls, words = set(), set()
for d in sorted(os.listdir(root)):
    for f in sorted(os.listdir(os.path.join(root, d))):
        t = open(os.path.join(root, d, f), 'rb').read().decode(ENC.get(d, d), errors='replace')
        for _ in range(3):
            for m in re.finditer(r'''(?:href|src|url|about|resource)\s*=\s*(?:"([^"]*)"|'([^']*)')''', t, re.I):
                urls.add(m.group(1) if m.group(1) is not None else m.group(2))
            for m in re.finditer(r'<(?:link|guid|comments|docs|url)>([^<]*)</', t):
                urls.add(m.group(1).strip())
            for m in re.finditer(r'''https?://[^\s<>"'\]\[]+''', t):
                urls.add(m.group(0))
            for w in re.split(r'[\s<>&]+', re.sub(r'<[^>]*>', ' ', t)):
                if any(ord(c) > 127 for c in w) and '\ufffd' not in w:
                    words.add(w)
            t = html.unescape(t)
sets = [('URL-like strings', sorted(u for u in urls if u)),
        ('non-ASCII words', ['/' + w for w in sorted(words)]),
        ('damaged words', ['/' + damage(w) for w in sorted(words)])]
work = tempfile.mkdtemp(prefix='xiri-precision.')
for i, (what, vals) in enumerate(sets):
    path = os.path.join(work, '%d.xml' % i)
    with open(path, 'w', encoding='utf-8') as o:
        o.write('<?xml version="1.0" encoding="UTF-8"?>\n<r>\n')
        for v in vals:
            o.write('<u>' + xml_ok(v).replace('&', '&amp;').replace('<', '&lt;') + '</u>\n')
        o.write('</r>\n')
    p = subprocess.run(xiri + ['check', '--presets=none', '--attr=u', '--format=json', path],
                       stdout=subprocess.PIPE)
    found = [json.loads(l) for l in p.stdout.decode('utf-8').splitlines()]
    found = [x for x in found if x['code'] in ('mojibake', 'double-pct')]
    lines = {x['line'] for x in found}
    print('%s: %d (%d with non-ASCII, %d with %%), %d with a finding (%d findings)'
          % (what, len(vals), sum(1 for v in vals if any(ord(c) > 127 for c in v)),
             sum(1 for v in vals if '%' in v), len(lines), len(found)))
    if i < 2:
        for x in found:
            print('  %s %r: %s' % (x['code'], x['value'][:100], x['message'][:160]))
subprocess.run(['rm', '-rf', work])
