#!/usr/bin/env python3
# check.py - runs xiri check, links and rewrite over every document of the
# shared corpus (tests/corpus/run.sh calls it; see README.md there) and
# asserts, for each file:
#  - no crash, no hang: every run ends within TIMEOUT seconds with an exit
#    status, never a signal, and no sanitizer report on its stderr;
#  - check exits 0 or 1; 2 only for the files of MALFORMED below, each with
#    the parse error it gives (all three commands fail on them with it);
#  - rewrite --to=uri (the default) exits 0 (2 for NOT_REWRITTEN), and its output equals the input
#    outside the spans that 'links --format=json' reports (offset,
#    raw_length): every gap between two spans is found, in order, in the
#    output;
#  - rewriting the output again changes nothing;
#  - the output has the same links, and every link whose value holds a
#    non-ASCII character is ASCII in it;
#  - no mojibake or double-pct finding at all (the corpus's links have none);
#  - links of a document over 64 KiB gives the same bytes with
#    --parse-thread=never (the default, one file named, uses the thread).
# Prints one line per failure and a summary with the number of links and of
# findings per code; exits 1 on any failure.
import collections, concurrent.futures, json, os, re, subprocess, sys, tempfile, threading, time

TIMEOUT = 60

# Documents that really are malformed: the corpus holds the first bytes of
# some feeds only (chardet's tests cut them).  Each was confirmed
# independently with xmllint --noout (libxml2's own tool, 2.9), whose
# first error is given after '#'; the second field is the message xiri
# gives (where libxml2's push parser says "Extra content" of a document
# cut inside an element, xiri names the element as xmllint does).
MALFORMED = {
    'Big5/coolloud.org.tw.xml': 'CharRef: invalid decimal value',  # same
    'CP932/hardsoft.at.webry.info.xml': "EntityRef: expecting ';'",  # not proper UTF-8 (no declaration; xiri sniffs CP932)
    'CP932/www2.chuo-u.ac.jp-suishin.xml': 'Space required after the Public Identifier',  # same
    'IBM855/aviaport.ru.xml': 'the document ends inside <full-text>',  # Premature end of data in tag full-text
    'IBM855/greek.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'IBM855/intertat.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'IBM855/susu.ac.ru.xml': 'the document ends inside <full-text>',  # Premature end of data in tag full-text
    'IBM866/aviaport.ru.xml': 'the document ends inside <full-text>',  # Premature end of data in tag full-text
    'IBM866/intertat.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'IBM866/susu.ac.ru.xml': 'the document ends inside <full-text>',  # Premature end of data in tag full-text
    'MacCyrillic/greek.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'MacCyrillic/intertat.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'MacCyrillic/koi.kinder.ru.xml': 'the document ends inside <title>',  # Premature end of data in tag title
    'MacCyrillic/susu.ac.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'iso-8859-2-hungarian/honositomuhely.hu.xml': "EntityRef: expecting ';'",  # same
    'iso-8859-5-bulgarian/bbc.co.uk.popshow.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'iso-8859-5-bulgarian/bpm.cult.bg.4.xml': 'the document ends inside <description>',  # CData section not finished (in a description)
    'iso-8859-5-bulgarian/bpm.cult.bg.medusa.4.xml': 'the document ends inside <description>',  # CData section not finished (in a description)
    'iso-8859-5-bulgarian/bpm.cult.bg.xml': 'the document ends inside <description>',  # CData section not finished (in a description)
    'iso-8859-5-bulgarian/doncho.net.comments.xml': 'the document ends inside <title>',  # Premature end of data in tag title
    'iso-8859-5-bulgarian/ide.li.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'iso-8859-5-russian/aviaport.ru.xml': 'the document ends inside <full-text>',  # Premature end of data in tag full-text
    'iso-8859-5-russian/greek.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'iso-8859-5-russian/intertat.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'iso-8859-5-russian/susu.ac.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'windows-1251-bulgarian/rinennor.org.xml': 'Extra content at the end of the document',  # same
    'windows-1251-russian/greek.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
    'windows-1251-russian/intertat.ru.xml': 'the document ends inside <description>',  # Premature end of data in tag description
}

# HTML documents in UTF-16 or UTF-32 without a byte order mark: the HTML
# encoding sniffing (WHATWG HTML 13.2.3.2) never guesses those, so xiri,
# like browsers, reads them as windows-1252, full of NUL characters, which
# the rewriter refuses; they are run with --encoding as a user would.
ENCODING = {
    'UTF-16BE/plane1-utf-16be.html': 'UTF-16BE',
    'UTF-16LE/plane1-utf-16le.html': 'UTF-16LE',
    'UTF-32BE/plane1-utf-32be.html': 'UTF-32BE',
    'UTF-32LE/plane1-utf-32le.html': 'UTF-32LE',
}

# Documents rewrite refuses (exit 2) and why: NUL characters, which the
# parser cuts values at (xiri(1), rewrite).  check and links still read
# them.  This one is a Mozilla test page of NUL bytes around ASCII text
# ("NOT UTF-16!").
NOT_REWRITTEN = {
    'ascii/_mozilla_bug638318_text.html': 'the document holds NUL characters',
}

xiri = sys.argv[1].split()
root = sys.argv[2]
work = tempfile.mkdtemp(prefix='xiri-corpus.')
failures = []
codes = collections.Counter()
nlinks = nnonascii = nfiles = 0
nbytes = 0
t_check = 0.0


lock = threading.Lock()


def fail(name, what):
    with lock:
        failures.append('%s: %s' % (name, what))


def run(name, args):
    if name in ENCODING:
        args = [args[0], '--encoding=' + ENCODING[name]] + args[1:]
    try:
        p = subprocess.run(xiri + args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        fail(name, 'xiri %s: no answer within %d s' % (' '.join(args[:2]), TIMEOUT))
        return None
    if p.returncode < 0:
        fail(name, 'xiri %s: killed by signal %d' % (' '.join(args[:2]), -p.returncode))
        return None
    # a sanitizer build (--enable-asan --enable-ubsan) may report and go on
    for mark in (b'Sanitizer', b'runtime error:'):
        if mark in p.stderr:
            fail(name, 'xiri %s: %s' % (' '.join(args[:2]), p.stderr.decode('utf-8', 'replace')[:500]))
            return None
    return p


def links_of(name, path):
    p = run(name, ['links', '--format=json', path])
    if p is None:
        return None, None
    return p, [json.loads(l) for l in p.stdout.decode('utf-8').splitlines()]


def same_outside(src, out, spans):
    """out is src with only the spans (offset, length) replaced."""
    pos = 0     # in out
    prev = 0    # in src
    gaps = []
    for off, ln in sorted(spans):
        gaps.append(src[prev:off])
        prev = off + ln
    tail = src[prev:]
    for i, g in enumerate(gaps):
        if i == 0:
            if not out.startswith(g):
                return 'the bytes before the first value differ'
            pos = len(g)
            continue
        k = out.find(g, pos)
        if k < 0:
            return 'the bytes between values %d and %d were changed' % (i - 1, i)
        pos = k + len(g)
    if not spans:
        return None if out == src else 'changed without any link'
    if not out.endswith(tail) or len(out) - len(tail) < pos:
        return 'the bytes after the last value differ'
    return None


def one(d, f):
    """Every assertion on one document."""
    global nfiles, nbytes, t_check, nlinks, nnonascii
    name = d + '/' + f
    path = os.path.join(root, d, f)
    src = open(path, 'rb').read()
    t0 = time.monotonic()
    pc = run(name, ['check', '--format=json', path])
    with lock:
        nfiles += 1
        nbytes += len(src)
        t_check += time.monotonic() - t0
    if pc is None:
        return
    err = pc.stderr.decode('utf-8', 'replace')
    if name in MALFORMED:
        if pc.returncode != 2 or MALFORMED[name] not in err:
            fail(name, 'check: exit %d, want 2 with "%s"; stderr: %s'
                 % (pc.returncode, MALFORMED[name], err[:300]))
        for cmd in (['links', path], ['rewrite', '-o', os.path.join(work, 'm-' + d + '-' + f), path]):
            p = run(name, cmd)
            if p is not None and (p.returncode != 2 or MALFORMED[name] not in p.stderr.decode('utf-8', 'replace')):
                fail(name, '%s: exit %d, want 2 with the parse error' % (cmd[0], p.returncode))
        return
    if pc.returncode not in (0, 1):
        fail(name, 'check: exit %d; stderr: %s' % (pc.returncode, err[:300]))
        return
    with lock:
        for l in pc.stdout.decode('utf-8').splitlines():
            codes[json.loads(l)['code']] += 1
    pl, links = links_of(name, path)
    if pl is None:
        return
    if pl.returncode not in (0, 1):
        fail(name, 'links: exit %d' % pl.returncode)
        return
    with lock:
        nlinks += len(links)
    # a document longer than the walker's first read (64 KiB) is parsed on
    # the parser thread after its root's start tag (one file named: auto):
    # without it, the same bytes
    if len(src) > 65536:
        pn = run(name, ['links', '--format=json', '--parse-thread=never', path])
        if pn is not None and (pn.returncode, pn.stdout, pn.stderr) != (pl.returncode, pl.stdout, pl.stderr):
            fail(name, 'links: --parse-thread=never gives other bytes')
    # rewrite, into a directory of its own so that the name (and so the
    # XML/HTML guess) stays the same
    o1 = os.path.join(work, '1', d)
    o2 = os.path.join(work, '2', d)
    os.makedirs(o1, exist_ok=True)
    os.makedirs(o2, exist_ok=True)
    o1 = os.path.join(o1, f)
    o2 = os.path.join(o2, f)
    pr = run(name, ['rewrite', '-o', o1, path])
    if pr is None:
        return
    if name in NOT_REWRITTEN:
        if pr.returncode != 2 or NOT_REWRITTEN[name] not in pr.stderr.decode('utf-8', 'replace'):
            fail(name, 'rewrite: exit %d, want 2 with "%s"' % (pr.returncode, NOT_REWRITTEN[name]))
        return
    if pr.returncode != 0:
        fail(name, 'rewrite: exit %d; stderr: %s' % (pr.returncode, pr.stderr.decode('utf-8', 'replace')[:300]))
        return
    out = open(o1, 'rb').read()
    why = same_outside(src, out, [(l['offset'], l['raw_length']) for l in links])
    if why:
        fail(name, 'rewrite: ' + why)
    pr2 = run(name, ['rewrite', '-q', '-o', o2, o1])
    if pr2 is not None and (pr2.returncode != 0 or open(o2, 'rb').read() != out):
        fail(name, 'rewrite: a second rewrite changed the output (exit %d)' % pr2.returncode)
    pl2, links2 = links_of(name, o1)
    if pl2 is None:
        return
    if len(links2) != len(links):
        fail(name, 'rewrite: %d links in the output, %d in the input' % (len(links2), len(links)))
        return
    # the places of the identifier-kept notes ("xiri: FILE:LINE:COL: note:
    # ... [identifier-kept]")
    kept = set()
    for m in re.finditer(r':(\d+):(\d+): note: [^\n]*\[identifier-kept\]',
                         pr.stderr.decode('utf-8', 'replace')):
        kept.add((int(m.group(1)), int(m.group(2))))
    for a, b in zip(links, links2):
        # An RSS guid and an Atom id are identifiers compared as strings
        # (RSS 2.0 "<guid> sub-element of <item>", RFC 4287 4.2.6.1): the
        # element content named so, told here by the name alone; and so
        # are RDF/XML's about, resource and datatype (RDF 1.1 Concepts 3.2)
        ident = ((a['attribute'] is None and a['element'] in ('guid', 'id')) or
                 (a['attribute'] or '').split(':')[-1] in ('about', 'resource', 'datatype'))
        if any(ord(c) > 127 for c in a['value']):
            with lock:
                nnonascii += 1
            if ident:
                if b['value'] != a['value'] or (a['line'], a['column']) not in kept:
                    fail(name, 'line %d: identifier %r: rewritten to %r, or no identifier-kept note'
                         % (a['line'], a['value'], b['value']))
            elif any(ord(c) > 127 for c in b['value']):
                fail(name, 'line %d: %r is still not ASCII after rewrite --to=uri: %r'
                     % (a['line'], a['value'], b['value']))
        elif (a['line'], a['column']) in kept:
            fail(name, 'line %d: an identifier-kept note for the ASCII value %r'
                 % (a['line'], a['value']))


# two documents at a time (the machine's cores; make check runs with -j2 at
# most): the assertions do not depend on the order
with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
    for x in [pool.submit(one, d, f) for d in sorted(os.listdir(root))
              for f in sorted(os.listdir(os.path.join(root, d)))]:
        x.result()
failures.sort()

# Precision guard: the links of the corpus hold no mojibake and no double
# escaping (its 58 values with non-ASCII characters were read by hand:
# Korean, Chinese, Cyrillic and Hungarian text; none holds "%25"), so any
# such finding is a false alarm.
for code in ('mojibake', 'double-pct'):
    if codes[code]:
        fail('corpus', '%d %s findings, want none (false alarms)' % (codes[code], code))

for x in failures:
    print('FAIL ' + x)
print('%d files (%d malformed, as listed), %d bytes; %d links, %d with non-ASCII characters'
      % (nfiles, len(MALFORMED), nbytes, nlinks, nnonascii))
print('findings: ' + ', '.join('%s %d' % kv for kv in sorted(codes.items(), key=lambda kv: (-kv[1], kv[0]))))
print('check: %.1f s, summed over the files (one process each, start-up included)'
      % t_check)
print('%d failures' % len(failures))
subprocess.run(['rm', '-rf', work])
sys.exit(1 if failures else 0)
