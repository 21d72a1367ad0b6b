#!/usr/bin/env python3
# rewrite_oracle.py - an independent model of "xiri rewrite", written in
# Python from the standards, to check the expected outputs of the
# rewrite-* cases and the outputs of generated documents.
#
#   rewrite_oracle.py --xiri=XIRI --doc-encoding=CODEC [OPTIONS] INPUT EXPECTED
#
# OPTIONS are those of "xiri rewrite" (--to, --idn, --resolve,
# --query-encoding) and of its walker (--base, --schema, --html, ...).
# It asks "xiri links --format=json" only where the links are (offset,
# raw_length, value, base, element, attribute: the walker's report, which
# the doc-links-* cases check by hand) and verifies that each reported
# span, decoded with references expanded, is the value.  Everything else
# is computed here:
#  - in HTML, ASCII tab, LF and CR removed from the value first (the
#    WHATWG URL basic parser removes them: browsers never request them),
#    and in a special URL (scheme, or the base's without one, ftp, file,
#    http, https, ws or wss) each '\' before the query or fragment made
#    '/' (the parser's states read it as '/' there);
#  - resolution: RFC 3986 5.2.2-5.2.4 and 5.3, strict; never of an HTML
#    usemap (a hash-name reference: it names a map of this document);
#  - to URI: RFC 3987 3.1 (each character outside US-ASCII as the %HH of
#    its UTF-8 octets; the LEIRI extras space < > " { } | \ ^ ` and the
#    controls escaped the same way), hosts of http, https, ftp, ws, wss and
#    mailto domains through IDNA (UTS #46 non-transitional, Python's idna
#    package when present, else the IDNA 2003 codec);
#  - in HTML not in UTF-8, the query of special URLs encoded as WHATWG URL
#    does it ("percent-encode after encoding": the document's encoding,
#    characters it lacks as &#N;, then the query percent-encode set), and
#    the ASCII that set leaves but URIs forbid (^ { } | \ ` [ ]) escaped
#    too; the same for the elements in the XHTML or SVG namespace of an
#    XML document whose root is in one of them (a page browsers render:
#    HTML's "encoding-parse a URL"), found here by expat, Python's XML
#    parser, not by libxml2 (rendered_links);
#  - to IRI: RFC 3987 3.2 (decode the %HH runs that are UTF-8 for
#    ucschar, iprivate in the query, never bidi formatting or characters
#    not seen, white space and default ignorables, 6.1 b, nor look-alikes
#    of delimiters, 8, nor a combining character after ASCII; decode the
#    unreserved ASCII but '.'; kept escapes in upper case; a character
#    written as it is that an IRI does not allow escaped; the host of a
#    DNS name, or a mailto domain, decoded only if IDNA ToASCII takes the
#    result back; a component, 4.2, decoded only if it is then well-formed
#    for bidi, read as check reads it, else only its unreserved ASCII);
#    but in HTML not in UTF-8 the query of a
#    special URL is kept exactly as written (its escapes are bytes of the
#    document's encoding, what browsers send) unless
#    --query-encoding=utf-8;
#  - the document: the value escaped for its quote (XML 1.0 2.4, 3.1),
#    in the document's encoding, characters it lacks as &#xHHHH;; an
#    unquoted HTML value holding a quote that would need quotes is left;
#  - identifiers, compared as strings, left as written (unless
#    --identifiers=rewrite): the content of an element named id (Atom,
#    RFC 4287 4.2.6.1) or guid (RSS 2.0), the targetNamespace attribute
#    and import's namespace (namespace names, Namespaces in XML 1.0 2.3),
#    and the first, third... item of a prefixed schemaLocation attribute
#    (xsi:schemaLocation pairs, XSD 1.0 Part 1 2.6.3), counted here from
#    the document's text.
# Prints "ok" or the first difference; exit status 0, 1 (differs) or 2.
import argparse
import bisect
import codecs
import html
import json
import re
import unicodedata
import subprocess
import sys
from xml.parsers import expat

try:
    import idna as idna_pkg
except ImportError:  # pragma: no cover
    idna_pkg = None

DNS_SCHEMES = {"http", "https", "ftp", "ws", "wss"}
SPECIAL = {"http", "https", "ftp", "file"}   # WHATWG special schemes with a query rule here
LEIRI_EXTRA = set(' <>"{}|\\^`')


class Unmappable(Exception):
    pass


# ------------------------------------------------------------ RFC 3986
URI_RE = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?$", re.S)


def split(ref):
    """RFC 3986 Appendix B: (scheme, authority, path, query, fragment), None
    for an absent part."""
    m = URI_RE.match(ref)
    return (m.group(2), m.group(4), m.group(5), m.group(7), m.group(9))


def recompose(s, a, p, q, f):
    """RFC 3986 5.3"""
    out = ""
    if s is not None:
        out += s + ":"
    if a is not None:
        out += "//" + a
    out += p
    if q is not None:
        out += "?" + q
    if f is not None:
        out += "#" + f
    return out


def remove_dot_segments(path):
    """RFC 3986 5.2.4"""
    inp, out = path, []
    while inp:
        if inp.startswith("../"):
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        elif inp.startswith("/./"):
            inp = "/" + inp[3:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../"):
            inp = "/" + inp[4:]
            if out:
                out.pop()
        elif inp == "/..":
            inp = "/"
            if out:
                out.pop()
        elif inp in (".", ".."):
            inp = ""
        else:
            m = re.match(r"^(/?[^/]*)", inp)
            out.append(m.group(1))
            inp = inp[len(m.group(1)):]
    return "".join(out)


def merge(base_a, base_p, ref_p):
    """RFC 3986 5.2.3"""
    if base_a is not None and base_p == "":
        return "/" + ref_p
    i = base_p.rfind("/")
    return base_p[:i + 1] + ref_p if i >= 0 else ref_p


def resolve(base, ref):
    """RFC 3986 5.2.2, strict"""
    rs, ra, rp, rq, rf = split(ref)
    bs, ba, bp, bq, _ = split(base)
    if rs is not None:
        return recompose(rs, ra, remove_dot_segments(rp), rq, rf)
    if ra is not None:
        return recompose(bs, ra, remove_dot_segments(rp), rq, rf)
    if rp == "":
        return recompose(bs, ba, bp, rq if rq is not None else bq, rf)
    if rp.startswith("/"):
        return recompose(bs, ba, remove_dot_segments(rp), rq, rf)
    return recompose(bs, ba, remove_dot_segments(merge(ba, bp, rp)), rq, rf)


# ------------------------------------------------------------ checks
HEX = "0123456789ABCDEFabcdef"


def check_syntax(v):
    """The parts of the LEIRI grammar the samples exercise: escapes are
    %HH, a port is digits, '[' ']' only around an IP literal, one '#'."""
    for i, c in enumerate(v):
        if c == "%" and not (i + 2 < len(v) and v[i + 1] in HEX and v[i + 2] in HEX):
            raise Unmappable("stray %")
    s, a, p, q, f = split(v)
    if s is not None and not re.match(r"^[A-Za-z][A-Za-z0-9+.-]*$", s):
        raise Unmappable("scheme")
    if a is not None:
        hostport = a.rsplit("@", 1)[-1]
        if hostport.startswith("["):
            if "]" not in hostport:
                raise Unmappable("ip literal")
            port = hostport[hostport.index("]") + 1:]
            if port and not re.match(r"^:[0-9]*$", port):
                raise Unmappable("port")
        elif ":" in hostport and not re.match(r"^[0-9]*$", hostport.rsplit(":", 1)[1]):
            raise Unmappable("port")
    for part in (p, q, f):
        if part and ("[" in part or "]" in part):
            raise Unmappable("brackets")
    if f and "#" in f:
        raise Unmappable("#")


# ------------------------------------------------------------ to URI
def pct_utf8(ch):
    return "".join("%%%02X" % b for b in ch.encode("utf-8"))


def map_text(t):
    """RFC 3987 3.1 step 2, with the LEIRI extras escaped"""
    return "".join(pct_utf8(c) if ord(c) >= 0x80 or c in LEIRI_EXTRA or ord(c) < 0x20 or ord(c) == 0x7F
                   else c for c in t)


def to_ascii_host(host):
    if all(ord(c) < 0x80 for c in host) and "%" not in host:
        return host
    if "%" in host:
        host = bytes_unquote(host)
    try:
        if idna_pkg is not None:
            return idna_pkg.encode(host, uts46=True, transitional=False).decode("ascii")
        return host.encode("idna").decode("ascii")
    except Exception as e:
        raise Unmappable("IDNA: %s" % e)


def bytes_unquote(s):
    b = bytearray()
    i = 0
    while i < len(s):
        if s[i] == "%":
            b.append(int(s[i + 1:i + 3], 16))
            i += 3
        else:
            b += s[i].encode("utf-8")
            i += 1
    return b.decode("utf-8")


def whatwg_encode(c, enc):
    """The bytes of c in enc as the WHATWG Encoding standard's encoder
    gives them, None when it cannot (its EUC-JP encoder has no JIS X 0212,
    which Python's codec has; the labels iso-8859-1 and latin1 name
    windows-1252 there, which has the euro sign at 80)."""
    if enc.replace("_", "-").lower() in ("latin-1", "latin1", "iso-8859-1"):
        enc = "cp1252"
    try:
        bs = c.encode(enc)
    except UnicodeEncodeError:
        # WHATWG's windows-1252 index maps the five bytes Python's cp1252
        # leaves undefined to the C1 controls of the same value
        if enc == "cp1252" and ord(c) in (0x81, 0x8D, 0x8F, 0x90, 0x9D):
            return bytes([ord(c)])
        return None
    if enc.replace("_", "-").lower() == "euc-jp" and bs[:1] == b"\x8f":
        return None
    return bs


def whatwg_query(q, enc, uri=False):
    """WHATWG URL: percent-encode after encoding, the (special) query
    percent-encode set, a character the encoding lacks as %26%23N%3B;
    tab and newlines are removed first (basic URL parser).  uri: also
    escape the ASCII that this set leaves and URIs forbid (the LEIRI
    extras { } | \\ ^ ` and [ ], which may be the second byte of a
    Shift_JIS character; RFC 3986 3.4), as the rewrite does."""
    out = []
    for c in q:
        if c in "\t\n\r":
            continue
        bs = whatwg_encode(c, enc)
        if bs is None:
            out.append("%%26%%23%d%%3B" % ord(c))
            continue
        for b in bs:
            if b < 0x21 or b > 0x7E or b in b'"#<>\'' or (uri and chr(b) in LEIRI_EXTRA | {"[", "]"}):
                out.append("%%%02X" % b)
            else:
                out.append(chr(b))
    return "".join(out)


def legacy_query(v, html_doc, doc_enc, base):
    """True when v is in an HTML document not in UTF-8 and is (or, being
    relative, has a base that is) of a special scheme: browsers send its
    query in the document's encoding (WHATWG URL 4.4, query state)."""
    s = split(v)[0]
    scheme = (s or (split(base)[0] if base else None) or "").lower()
    return (html_doc and not doc_enc.replace("_", "-").lower().startswith("utf")
            and scheme in SPECIAL)


XHTML_NS = "http://www.w3.org/1999/xhtml"
SVG_NS = "http://www.w3.org/2000/svg"


# The attributes whose value is CSS (xiri's preset "css"): HTML's and
# SVG's style, and SVG's presentation attributes that take a FuncIRI.
CSS_ATTRIBUTES = {"style", "fill", "stroke", "clip-path", "mask", "filter",
                  "marker-start", "marker-mid", "marker-end", "cursor"}


def css_record(l):
    """Is link l (a record of xiri links) in CSS: an attribute of
    CSS_ATTRIBUTES or a style element's content?"""
    return l["attribute"] in CSS_ATTRIBUTES or (
        l["attribute"] is None and l["element"].lower() == "style")


def css_link(l, prefix, is_html, entities, raw_text):
    """Is link l a url() of CSS?  Its attribute is one of CSS_ATTRIBUTES,
    or it is the content of a style element (a style sheet, where an
    @import's string is a URL too), and the text before its span (prefix,
    decoded; its references read here, but in raw text) ends with "url(",
    then white space and a quote mark at most (or "image-set(" and a
    quote mark): checked here from the
    document itself, not taken from xiri.  Returns None when it is not,
    else the quote of its string ("" unquoted)."""
    sheet = l["attribute"] is None and l["element"].lower() == "style"
    if l["attribute"] not in CSS_ATTRIBUTES and not sheet:
        return None
    if not raw_text:
        prefix = expand_refs(prefix[-200:], is_html, entities)
    m = re.search(r"url\(\s*([\"']?)\s*$", prefix, re.I)
    if not m and sheet:
        m = re.search(r"@import\s*([\"'])\s*$", prefix, re.I)
    if not m:
        # the first string option of an image-set() (CSS Images Module
        # Level 4), the only one rewrite_props.py writes
        m = re.search(r"(?:-webkit-)?image-set\(\s*([\"'])\s*$", prefix, re.I)
    if not m:
        raise ModelError("the CSS link at %d does not follow a url(" % l["offset"])
    return m.group(1)


def css_unsafe(v, quote):
    """CSS Syntax Level 3: characters that would end or break the url() a
    new value is written into, a string quoted with quote (4.3.5) or an
    unquoted URL (quote "", 4.3.6); xiri writes no CSS escapes, so it
    leaves such a value alone."""
    if quote:
        return any(c in quote + "\\\n\r\f" for c in v)
    return any(ord(c) <= 0x20 or c in "\x7f\"'()\\" for c in v)


def rendered_links(data, enc, links, is_html):
    """For each link (a record of xiri links --format=json), whether
    browsers complete its URL with the document's encoding: every link of
    an HTML document; in XML, a link of an element in the XHTML or SVG
    namespace when the root element is in one of them (XHTML or SVG served
    as XML), but xml:base; the href of an xml-stylesheet processing
    instruction in any XML document (browsers load the style sheet so).
    The elements and their places are read by expat; a link belongs to
    the last start tag before it."""
    if is_html:
        return [True] * len(links)
    if enc.replace("_", "-").lower().startswith("utf"):
        return [False] * len(links)  # the rule changes nothing in UTF-8
    text = data.decode(enc)
    # the byte offset in data of each character (stateless encodings)
    offs, pos = [], 0
    for c in text:
        offs.append(pos)
        pos += len(c.encode(enc))
    # expat reads the text as UTF-8 (the encoding argument overrides the
    # declaration); a start tag's byte index there, back to a character
    utf8_offs, pos = [], 0
    for c in text:
        utf8_offs.append(pos)
        pos += len(c.encode("utf-8"))
    starts = []  # (offset in data of the '<', namespace)
    p = expat.ParserCreate(encoding="UTF-8", namespace_separator=" ")

    def start(name, attrs):
        ns = name.split(" ")[0] if " " in name else None
        ci = bisect.bisect_left(utf8_offs, p.CurrentByteIndex)
        starts.append((offs[ci], ns))

    p.StartElementHandler = start
    p.Parse(text.encode("utf-8"), True)
    rendered = bool(starts) and starts[0][1] in (XHTML_NS, SVG_NS)
    places = [o for o, _ in starts]
    out = []
    for l in links:
        if l["element"] == "?xml-stylesheet":
            out.append(True)
            continue
        k = bisect.bisect_left(places, l["offset"]) - 1
        out.append(rendered and not l["element"].startswith("?") and k >= 0 and
                   l["attribute"] != "xml:base" and
                   starts[k][1] in (XHTML_NS, SVG_NS))
    return out


def to_uri(v, opts, html_doc, doc_enc, base):
    check_syntax(v)
    s, a, p, q, f = split(v)
    # a network-path reference takes its base's scheme (RFC 3986 5.2.2)
    eff = s if s is not None else (split(base)[0] if base else None)
    if a is not None:
        if "@" in a:
            ui, hp = a.rsplit("@", 1)
            ui = map_text(ui) + "@"
        else:
            ui, hp = "", a
        if hp.startswith("["):
            host, port = hp[:hp.index("]") + 1], hp[hp.index("]") + 1:]
        elif ":" in hp:
            host, port = hp.rsplit(":", 1)
            port = ":" + port
        else:
            host, port = hp, ""
        if opts.idn == "keep":
            pass
        elif opts.idn == "punycode" and (eff or "").lower() in DNS_SCHEMES:
            host = to_ascii_host(host)
        else:
            host = map_text(host)
        a = ui + host + port
    if s is not None and s.lower() == "mailto" and opts.idn in ("punycode", "keep"):
        # RFC 6068 2: addr-spec, the domain after the last '@' (keep: as
        # written, as hosts)
        addrs = []
        for addr in p.split(","):
            if "@" in addr:
                local, dom = addr.rsplit("@", 1)
                addrs.append(map_text(local) + "@" +
                             (dom if opts.idn == "keep" else to_ascii_host(dom)))
            else:
                addrs.append(map_text(addr))
        p = ",".join(addrs)
    else:
        p = map_text(p)
    qdiff = False
    if q is not None:
        rfc = map_text(q)
        if legacy_query(v, html_doc, doc_enc, base) and any(ord(c) >= 0x80 for c in q):
            doc = whatwg_query(q, doc_enc, uri=True)
            qdiff = doc != rfc
            q = rfc if opts.query_encoding == "utf-8" else doc
        else:
            q = rfc
    if f is not None:
        f = map_text(f)
    return recompose(s, a, p, q, f), qdiff


# ------------------------------------------------------------ to IRI
def ucschar(cp):
    """RFC 3987 2.2"""
    return (0xA0 <= cp <= 0xD7FF or 0xF900 <= cp <= 0xFDCF or 0xFDF0 <= cp <= 0xFFEF or
            any(0x10000 * k <= cp <= 0x10000 * k + 0xFFFD for k in range(1, 14)) or
            0xE1000 <= cp <= 0xEFFFD)


def iprivate(cp):
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD


BIDI_FORMAT = {0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E}


def unseen(cp):
    """RFC 3987 6.1 (b), to which 3.2 step 4 refers: not decoded, since it
    would not be seen.  Unicode's White_Space (PropList.txt: Zs, Zl, Zp and
    some controls) and Default_Ignorable_Code_Point, derived as
    DerivedCoreProperties.txt defines it: Other_Default_Ignorable_Code_Point
    + Cf + Variation_Selector - White_Space - FFF9..FFFB - 13430..1343F -
    Prepended_Concatenation_Mark (from Python's unicodedata and PropList
    15.0's lists, not from the table xiri has)"""
    cat = unicodedata.category(chr(cp))
    if cat in ("Zs", "Zl", "Zp") or cp == 0x85:
        return True
    other_di = (cp == 0x034F or 0x115F <= cp <= 0x1160 or 0x17B4 <= cp <= 0x17B5 or cp == 0x2065 or
                cp == 0x3164 or cp == 0xFFA0 or 0xFFF0 <= cp <= 0xFFF8 or cp == 0xE0000 or
                0xE0002 <= cp <= 0xE001F or 0xE0080 <= cp <= 0xE00FF or 0xE01F0 <= cp <= 0xE0FFF)
    vs = 0x180B <= cp <= 0x180D or cp == 0x180F or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF
    pcm = (0x0600 <= cp <= 0x0605 or cp in (0x06DD, 0x070F, 0x08E2, 0x110BD, 0x110CD) or
           0x0890 <= cp <= 0x0891)
    excluded = 0xFFF9 <= cp <= 0xFFFB or 0x13430 <= cp <= 0x1343F or pcm
    return (other_di or cat == "Cf" or vs) and not excluded


_NFC_MAYBE = None


def joins_before(ch):
    """Whether NFC may join ch to the character before it (Unicode's
    NFC_Quick_Check Maybe, or a non-zero canonical combining class): the
    second character of a primary composite (derived here from the
    decomposition data), the conjoining jamo vowels and trailing
    consonants (Unicode 3.12), the combining marks"""
    global _NFC_MAYBE
    if unicodedata.combining(ch):
        return True
    if _NFC_MAYBE is None:
        maybe = set(chr(c) for c in list(range(0x1161, 0x1176)) + list(range(0x11A8, 0x11C3)))
        for cp in range(0x110000):
            d = unicodedata.decomposition(chr(cp))
            if not d or d.startswith("<"):
                continue
            parts = d.split()
            if len(parts) == 2:
                a, b = chr(int(parts[0], 16)), chr(int(parts[1], 16))
                if unicodedata.normalize("NFC", a + b) == chr(cp):
                    maybe.add(b)
        _NFC_MAYBE = maybe
    return ch in _NFC_MAYBE


# UTS #39 confusables.txt maps these to "/" and ":" (the skeleton); other
# look-alikes of delimiters by skeleton are not modelled (the generated
# documents have none)
SKELETON_DELIMITERS = {"\u2215", "\u2044", "\u1735", "\u0589"}


def lookalike(ch):
    """RFC 3987 7.5, 8: a punctuation mark or symbol that would pass for
    delimiters: its NFKC form (up to three ASCII characters) or its
    skeleton holds one of / : ? # @ & = % or is "." or ".." (in a host,
    xiri also tests letters' skeletons, which this model lacks)"""
    if unicodedata.category(ch)[0] not in "PS":
        return False
    k = unicodedata.normalize("NFKC", ch)
    if (len(k) <= 3 and all(ord(c) < 0x80 for c in k) and
            (any(c in "/:?#@&=%" for c in k) or k in (".", ".."))):
        return True
    return ch in SKELETON_DELIMITERS


def nfc_ascii(ch):
    """5.3.2.2 compares in NFC: a character NFC makes ASCII (U+037E is ';')"""
    return all(ord(c) < 0x80 for c in unicodedata.normalize("NFC", ch))


def joins_syntax(written):
    """what NFC would join a combining character to: the start, ASCII
    other than a letter or digit, the last digit of an escape"""
    if not written:
        return True
    last = written[-1]
    if ord(last) >= 0x80:
        return False
    if not last.isalnum():
        return True
    return re.search(r"%[0-9A-Fa-f]{2}$", written) is not None


UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def iri_allowed(cp, in_query):
    return cp not in BIDI_FORMAT and (ucschar(cp) or (in_query and iprivate(cp)))


def decode_text(t, in_query, prev="/", utf8=True):
    """RFC 3987 3.2 steps 2-4 on one component (prev: the character written
    before it): decode the %HH runs that are UTF-8 for a character an IRI
    allows there, unless it would not be seen, would pass for a delimiter,
    or would join an ASCII character before it in NFC; a character written
    as it is that an IRI does not allow there escaped (3.1)"""
    out, i = [], 0
    while i < len(t):
        if not re.match(r"%[0-9A-Fa-f]{2}", t[i:i + 3]):
            c = t[i]
            if ord(c) >= 0x80 and not iri_allowed(ord(c), in_query):
                c = pct_utf8(c)
            out.append(c)
            i += 1
            continue
        b0 = int(t[i + 1:i + 3], 16)
        if chr(b0) in UNRESERVED and chr(b0) != ".":
            # RFC 3986 2.3 and 6.2.2.2 (a "." escaped stays so: no new dot
            # segment)
            out.append(chr(b0))
            i += 3
            continue
        n = 2 if 0xC2 <= b0 <= 0xDF else 3 if 0xE0 <= b0 <= 0xEF else 4 if 0xF0 <= b0 <= 0xF4 else 0
        ch = None
        if utf8 and n and re.match(r"^(%[0-9A-Fa-f]{2}){" + str(n) + "}", t[i:]):
            bs = bytes(int(t[i + 3 * k + 1:i + 3 * k + 3], 16) for k in range(n))
            try:
                ch = bs.decode("utf-8")
            except UnicodeDecodeError:
                ch = None
            if ch is not None:
                cp = ord(ch)
                written = prev + "".join(out[-2:])
                mark = unicodedata.category(ch).startswith("M")
                # (unassigned: Python's Unicode may be older than ICU's)
                if (not iri_allowed(cp, in_query) or unseen(cp) or nfc_ascii(ch) or
                        unicodedata.category(ch) == "Cn" or
                        lookalike(ch) or ((mark or joins_before(ch)) and joins_syntax(written))):
                    ch = None
        if ch is not None:
            out.append(ch)
            i += 3 * n
        else:
            out.append("%" + t[i + 1:i + 3].upper())
            i += 3
    return "".join(out)


def bidi_dir(c):
    """a character's direction as RFC 3987 4.2 reads it (an ASCII letter
    left-to-right, other ASCII neither)"""
    if ord(c) < 0x80:
        return "L" if c.isalpha() else ""
    d = unicodedata.bidirectional(c)
    return "R" if d in ("R", "AL") else "L" if d == "L" else ""


def bidi_well_formed(t):
    """RFC 3987 4.2 rules 1 and 2 on one component as displayed (escapes
    are their characters): no right-to-left character, or no left-to-right
    one and right-to-left ones at both ends"""
    ds = [bidi_dir(c) for c in t]
    return "R" not in ds or ("L" not in ds and ds[0] == "R" and ds[-1] == "R")


def bidi_text(t, in_query, delims, prev="/"):
    """decode_text component by component (split at delims; "" for one):
    a component that decoded is not well-formed for bidi keeps its escapes
    (only unreserved ASCII decoded)"""
    pieces = re.split("([" + re.escape(delims) + "])", t) if delims else [t]
    out = []
    for k, piece in enumerate(pieces):
        if k % 2 == 1:
            out.append(piece)  # a delimiter
            continue
        before = out[-1][-1] if out and out[-1] else prev
        d = decode_text(piece, in_query, before)
        if not bidi_well_formed(d):
            d = decode_text(piece, in_query, before, utf8=False)
        out.append(d)
    return "".join(out)


def host_maps(host):
    """What to-uri does to the host of a DNS name: its escapes decoded,
    IDNA ToASCII; whether that succeeds"""
    if not any(ord(c) >= 0x80 for c in host) and not re.search(r"%[89A-Fa-f]", host):
        return True
    try:
        to_ascii_host(host)
        return True
    except (Unmappable, UnicodeDecodeError):
        return False


def unicode_labels(host):
    """--idn=unicode: each xn-- label by ToUnicode when the whole name
    converts and the label's characters show as they are; the others as
    they are"""
    if idna_pkg is None or not re.search(r"(^|\.)xn--", host, re.I):
        return host
    try:
        uh = idna_pkg.decode(host)
    except Exception:
        return host
    hl, ul = host.split("."), uh.split(".")
    if len(hl) != len(ul):
        return host
    out = []
    for h, u in zip(hl, ul):
        shows = all(ord(c) < 0x80 or (iri_allowed(ord(c), False) and not unseen(ord(c)) and
                                      not lookalike(c)) for c in u)
        out.append(u if h[:4].lower() == "xn--" and shows else h)
    return ".".join(out)


class HostKept(Exception):
    """a DNS host to-uri could not map back: the value is kept whole"""


def dns_host(host, opts):
    """RFC 3987 3.2 on the host of a DNS name: decoded only where to-uri
    maps the result back"""
    h = decode_text(host, False)
    if opts.idn == "unicode":
        h = unicode_labels(h)
    if not all(bidi_well_formed(x) for x in h.split(".")):
        # RFC 3987 4.2 on each label, as check reads it: the host keeps
        # its escapes and xn-- labels
        h = decode_text(host, False, utf8=False)
    if not host_maps(h):
        raise HostKept()
    return h


def to_iri(v, opts, html_doc, doc_enc, base):
    check_syntax(v)
    try:
        return to_iri_parts(v, opts, html_doc, doc_enc, base)
    except HostKept:
        # to-uri leaves a value whose host it cannot map as it is: nothing
        # of it is decoded, so that it stays a URI
        s, a, p, q, f = split(v)
        keep_q = opts.query_encoding != "utf-8" and legacy_query(v, html_doc, doc_enc, base)
        parts = [decode_text(x, False, utf8=False) if x is not None else None for x in (a, p)]
        q2 = q if (q is None or keep_q) else decode_text(q, True, utf8=False)
        f2 = None if f is None else decode_text(f, False, utf8=False)
        return recompose(s, parts[0], parts[1], q2, f2)


def to_iri_parts(v, opts, html_doc, doc_enc, base):
    s, a, p, q, f = split(v)
    keep_q = opts.query_encoding != "utf-8" and legacy_query(v, html_doc, doc_enc, base)
    scheme = (s or (split(base)[0] if base and a is not None else None) or "").lower()
    if a is not None:
        ui, at, hp = a.rpartition("@")
        m = re.match(r"^(\[[^\]]*\]|[^:]*)(.*)$", hp, re.S)
        host, port = m.group(1), m.group(2)
        ui = bidi_text(ui, False, "") + at
        # (keep: as written; an IP literal has no component)
        host = (host if opts.idn == "keep" else
                dns_host(host, opts) if scheme in DNS_SCHEMES else
                decode_text(host, False) if host.startswith("[") else
                bidi_text(host, False, "."))
        a = ui + host + decode_text(port, False)
    if a is None and s is not None and s.lower() == "mailto":
        addrs = []
        for addr in p.split(","):
            lp, at, dom = addr.rpartition("@")
            dom = dom if opts.idn == "keep" else dns_host(dom, opts) if at else ""
            addrs.append(decode_text(lp, False) + at + dom if at
                         else decode_text(addr, False))
        p2 = ",".join(addrs)
        # (the path's components, split at '/' and '.', as check reads
        # them: "א@ex.org" mixes)
        p = p2 if all(bidi_well_formed(c) for c in re.split("[/.]", p2)) else \
            decode_text(p, False, utf8=False)
    else:
        p = bidi_text(p, False, "/.")
    if q is not None and not keep_q:
        q = bidi_text(q, True, "&;=")
    if f is not None:
        f = bidi_text(f, False, "")
    return recompose(s, a, p, q, f)


# ------------------------------------------------------------ document
def ncr_hex(err):
    return ("".join("&#x%X;" % ord(c) for c in err.object[err.start:err.end]), err.end)


codecs.register_error("xiri_ncr_hex", ncr_hex)


def expand_refs(s, is_html, entities):
    if is_html:
        return html.unescape(s)

    def rep(m):
        r = m.group(1)
        if r.startswith("#x"):
            return chr(int(r[2:], 16))
        if r.startswith("#"):
            return chr(int(r[1:]))
        return expand_refs(entities[r], False, entities)
    return re.sub(r"&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);", rep, s)


def quote_of(text, start, attr, is_html):
    """The quote of the attribute whose value holds text[start]: the last
    'attr = Q' before it."""
    best = None
    pat = re.compile(r"(?<![\w:.-])%s\s*=\s*([\"']?)" % re.escape(attr), re.I if is_html else 0)
    for m in pat.finditer(text, 0, start + 1):
        if m.end() <= start:
            best = m
    if best is None:
        raise SystemExit("oracle: cannot find the attribute %s before %d" % (attr, start))
    return best.group(1)


def escape_value(v, quote, attribute):
    if attribute is None:
        return v.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    add = False
    if quote == "" and (v == "" or any(c in " \t\n\r\f\"'=<>`" for c in v)):
        quote, add = '"', True
    out = v.replace("&", "&amp;").replace("<", "&lt;")
    if quote == '"':
        out = out.replace('"', "&quot;")
    elif quote == "'":
        out = out.replace("'", "&#39;")
    return '"' + out + '"' if add else out


class ModelError(Exception):
    pass


class Options:
    def __init__(self, to="uri", idn="punycode", resolve=False, query_encoding="document",
                 identifiers="keep"):
        self.to = to
        self.idn = idn
        self.resolve = resolve
        self.query_encoding = query_encoding
        self.identifiers = identifiers


def is_identifier(l, item):
    """Whether the link l (a record of xiri links), the item-th of its
    attribute value, is an identifier (see the header)."""
    a = l["attribute"]
    if a is None:
        return l["element"] in ("id", "guid")
    if a == "targetNamespace" or (a == "namespace" and l["element"] == "import"):
        return True
    return a.endswith(":schemaLocation") and item % 2 == 0


SPECIAL_SCHEMES = ("ftp", "file", "http", "https", "ws", "wss")


def whatwg_special(v, base):
    """WHATWG URL 4.2, 4.4: whether v parses as a special URL: its scheme
    (an ASCII alpha, then alphanumerics, '+', '-', '.', then ':') or,
    for a reference without one, the base's, is a special scheme."""
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", v)
    if not m and base:
        m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", base)
    return bool(m) and m.group(1).lower() in SPECIAL_SCHEMES


def model(data, links, opts, enc, is_html):
    """The document data (bytes in the Python codec enc) rewritten, given
    the walker's links (the records of xiri links --format=json, in
    order).  Returns (bytes, [(line, column) of each query whose two
    encodings differ], [(line, column) of each value left unmapped])."""
    text_all = data.decode(enc, "replace")
    entities = {"lt": "<", "gt": ">", "amp": "&", "quot": '"', "apos": "'"}
    for m in re.finditer(r'<!ENTITY\s+([\w.-]+)\s+"([^"]*)"', text_all):
        entities[m.group(1)] = m.group(2)
    out = bytearray()
    pos = 0
    qdiffs, unmapped = [], []
    rendered = rendered_links(data, enc, links, is_html)
    item, prev = 0, None  # the item's index in its value; the last link
    for li, l in enumerate(links):
        off, n, v = l["offset"], l["raw_length"], l["value"]
        if n is None:
            # no span of its own: <e/> (XML 1.0 3.1), the empty value at the
            # '/' of "/>", or content in an entity's replacement text, placed
            # after the reference; left as it is
            if l["attribute"] is not None:
                raise ModelError("an attribute's link without a span at %d" % off)
            prev = None
            continue
        raw = data[off:off + n]
        # the next item of the same value: the same attribute, nothing
        # but white space since the last one (XSD list items)
        if (prev is not None and l["attribute"] and l["attribute"] == prev["attribute"] and
                l["element"] == prev["element"] and
                data[prev["offset"] + prev["raw_length"]:off].decode(enc, "replace").strip() == ""):
            item += 1
        else:
            item = 0
        prev = l
        if opts.identifiers == "keep" and is_identifier(l, item):
            continue
        text = raw.decode(enc)
        # XML 1.0 2.11: line ends become LF; so does HTML's input stream
        # preprocessing (WHATWG HTML 13.2.3.5), before any reference is read
        text = re.sub(r"\r\n?", "\n", text)
        if l["attribute"] and not is_html:
            # XML 1.0 3.3.3: each literal white space character of an
            # attribute value becomes a space
            text = text.translate({9: 32, 10: 32, 13: 32})
        # HTML's style and script hold raw text (WHATWG HTML, RAWTEXT
        # state): no reference
        raw_text = is_html and l["attribute"] is None and l["element"].lower() in ("style", "script")
        # the walker's span must hold the value as written
        if (text if raw_text else expand_refs(text, is_html, entities)) != v:
            raise ModelError("the span %d+%d %r is not the value %r" % (off, n, raw, v))
        prefix = data[max(0, off - 8192):off].decode(enc, "replace")
        css_quote = css_link(l, prefix, is_html, entities, raw_text)
        is_css = css_quote is not None
        try:
            nv = v
            if is_html:
                # WHATWG URL basic parser: ASCII tab and newlines removed
                nv = re.sub(r"[\t\n\r]", "", nv)
                # and '\' read as '/' before the query or fragment of a
                # special URL (special authority slashes, authority, path
                # and relative states)
                if whatwg_special(nv, l["base"]):
                    end = len(nv)
                    for c in "?#":
                        if c in nv:
                            end = min(end, nv.index(c))
                    nv = nv[:end].replace("\\", "/") + nv[end:]
            # HTML usemap: a hash-name reference, never resolved; a CSS
            # url() of a fragment only is local (CSS Values 4, "Fragment
            # URLs"): not resolved either
            if (opts.resolve and l["base"] and not (is_html and l["attribute"] == "usemap") and
                    not (is_css and nv.startswith("#"))):
                check_syntax(nv)
                nv = resolve(l["base"], nv)
            # CSS encodes a URL's query in UTF-8, in any document (CSS
            # Values 4, "URL processing model")
            doc_query = rendered[li] and not is_css
            if opts.to == "uri":
                nv, qdiff = to_uri(nv, opts, doc_query, enc, l["base"])
                if qdiff:
                    qdiffs.append((l["line"], l["column"]))
            else:
                nv = to_iri(nv, opts, doc_query, enc, l["base"])
            if is_css and nv != v and css_unsafe(nv, css_quote):
                raise Unmappable()
            if raw_text and nv != v:
                try:
                    nv.encode(enc)
                except UnicodeEncodeError:
                    # no reference can stand in raw text
                    raise Unmappable()
        except Unmappable:
            unmapped.append((l["line"], l["column"]))
            continue
        if nv == v:
            continue
        if off < pos:
            raise ModelError("links out of order at %d" % off)
        quote = quote_of(prefix, len(prefix), l["attribute"], is_html) if l["attribute"] else None
        if (quote == "" and ('"' in v or "'" in v) and
                (nv == "" or any(c in " \t\n\r\f\"'=<>`" for c in nv))):
            # an unquoted value with a quote in it is broken markup (WHATWG
            # HTML 13.2.5.38): quotes added could pair with an earlier one
            unmapped.append((l["line"], l["column"]))
            continue
        coded = (nv if raw_text else escape_value(nv, quote, l["attribute"])).encode(enc, "xiri_ncr_hex")
        out += data[pos:off] + coded
        pos = off + n
    out += data[pos:]
    return bytes(out), qdiffs, unmapped


def first_difference(got, want):
    """got: what the model computed; want: the output checked."""
    i = next((k for k in range(min(len(got), len(want))) if got[k] != want[k]),
             min(len(got), len(want)))
    return "differs at byte %d: model %r, checked output %r" % (
        i, got[max(0, i - 40):i + 40], want[max(0, i - 40):i + 40])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--xiri", required=True)
    ap.add_argument("--doc-encoding", required=True, help="a Python codec")
    ap.add_argument("--to", default="uri")
    ap.add_argument("--idn", default="punycode")
    ap.add_argument("--resolve", action="store_true")
    ap.add_argument("--query-encoding", default="document")
    ap.add_argument("--identifiers", default="keep")
    ap.add_argument("input")
    ap.add_argument("expected")
    # the other options (--base, --schema, --html, --xml, --encoding) are
    # the walker's: given to xiri links as they are
    o, rest = ap.parse_known_args()
    if any(not w.startswith("--") for w in rest):
        ap.error("unknown arguments: %s" % rest)
    data = open(o.input, "rb").read()
    p = subprocess.run(o.xiri.split() + ["links", "-q", "--format=json"] + rest + [o.input],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        print("oracle: xiri links failed: %s" % p.stderr.decode("utf-8", "replace"))
        return 2
    links = [json.loads(line) for line in p.stdout.decode("utf-8").splitlines()]
    is_html = "--html" in rest or ("--xml" not in rest and o.input.endswith((".html", ".htm")))
    try:
        got, _, _ = model(data, links, Options(o.to, o.idn, o.resolve, o.query_encoding,
                                               o.identifiers),
                          o.doc_encoding, is_html)
    except ModelError as e:
        print("oracle: %s" % e)
        return 2
    want = open(o.expected, "rb").read()
    if got == want:
        print("ok")
        return 0
    print(first_difference(got, want))
    return 1


if __name__ == "__main__":
    sys.exit(main())
