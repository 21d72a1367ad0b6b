#!/usr/bin/env python3
# gen_docs.py - the document corpus of the document-pass benchmark
# (bench/docbench.sh): link-dense XHTML, HTML5 and legacy-encoded HTML.
"""Generate the benchmark documents into a scratch directory.

Four flavours, each at two sizes (the small file is a prefix of the large
one, closed properly, so both hold the same mix of markup and links):

  xhtml   XHTML as XML: UTF-8, xml:base on the root and on every chapter
          (relative to the root's), character references (&#233; &#x6771;)
          and &amp; inside values, inline SVG with xlink:href
  html5   HTML5, UTF-8 (<meta charset>), <base href>, srcset (img and
          picture/source), ping, unquoted values, named references,
          omitted end tags (</p>, </li>), a meta refresh
  sjis    HTML4-style page in Shift_JIS (<meta charset="Shift_JIS">):
          Japanese text, paths and queries
  cp1252  HTML4-style page in windows-1252 (http-equiv Content-Type):
          French/German text, accented paths and queries, curly quotes

Deterministic: the only randomness is random.Random(seed).random(), whose
sequence Python guarantees across versions; no network, no other input.
Usage: gen_docs.py [-o DIR] [-s SEED] [--sizes 20,200] [FLAVOUR...]
Sizes are in MB (10^6 bytes); a document stops at the first chapter end
past its size, so it is a few KB longer.
"""

import argparse
import os
import random
import sys

FLAVOURS = ("xhtml", "html5", "sjis", "cp1252")
EXT = {"xhtml": "xhtml", "html5": "html", "sjis": "html", "cp1252": "html"}
ENCODING = {"xhtml": "utf-8", "html5": "utf-8", "sjis": "shift_jis",
            "cp1252": "cp1252"}

EN_WORDS = (
    "the of and to in is for that with as on by this be are from at an "
    "or which it can all has more was one new also will when their other "
    "release guide install configure build server client library option "
    "document section chapter example figure table note warning version "
    "support update network request response header cache proxy policy "
    "archive index search result report station harbour festival museum "
    "garden bridge river market season travel ticket route schedule map "
    "photo gallery review comment author editor reader feed link page "
    "site address encoding character reference base resolve path query "
    "fragment scheme host port user data format stream parser schema"
).split()

EN_SEGS = (
    "docs guide api news blog about contact help support download "
    "products services events archive tags category images css js media "
    "en de fr ja 2023 2024 2025 install reference tutorial faq release "
    "notes changelog team jobs press legal privacy terms sitemap feeds"
).split()

# Latin text and path segments for the UTF-8 flavours and windows-1252
# (every character is in windows-1252).
LATIN_WORDS = (
    "café crème brûlée naïve façade élève déjà vu été hôtel forêt "
    "Müller Straße Bäckerei Größe Übersicht Zürich München Köln schön "
    "niño señor mañana año pequeño corazón canción "
    "prix menu carte recette entrée plat dessert vin fromage pain "
    "Angebot Preis Speisekarte Öffnungszeiten Anfahrt Kontakt"
).split()

LATIN_SEGS = (
    "café menü crème-brûlée übersicht straße größe öffnungszeiten "
    "été hôtel forêt zürich münchen köln niño año señor"
).split()

PUNCT_1252 = ("\u2019", "\u201c", "\u201d", "\u2013", "\u2014", "\u2026",
              "\u20ac", "\u2122", "\u00e9", "\u00a0")

# Japanese for Shift_JIS: JIS X 0208 only (no NEC/IBM extensions, no
# WAVE DASH), so that Python's shift_jis and ICU's Shift_JIS agree.
JA_WORDS = (
    "京都 観光 案内 寺院 庭園 金閣寺 銀閣寺 清水寺 嵐山 祇園 東山 "
    "伏見稲荷 二条城 紅葉 桜 季節 交通 地図 宿泊 旅館 料理 抹茶 豆腐 "
    "湯葉 写真 歴史 文化 祭り お知らせ バス 電車 駅 徒歩 入場料 "
    "営業時間 休館日 ホテル レストラン ページ リンク 詳細 一覧 予約 "
    "はこちら について です。 ます。 の は を に と から まで 約 分"
).split()

JA_SEGS = (
    "観光 京都 寺院 庭園 金閣寺 清水寺 嵐山 祇園 宿泊 交通 地図 料理 "
    "写真 歴史 お知らせ 予約 一覧"
).split()

HOSTS = ("www.example.org", "example.com", "docs.example.net",
         "cdn.example.net", "news.example.co.uk", "static.example.org",
         "www.w3.org", "en.wikipedia.example", "api.example.io",
         "stats.example.com")
IDN_HOSTS = ("bücher.example", "müller-bäckerei.example", "例え.テスト",
             "пример.рф", "παράδειγμα.δοκιμή", "café.example.fr")
IDN_HOSTS_SJIS = ("例え.テスト", "京都観光.jp", "日本語.jp")
IDN_HOSTS_1252 = ("bücher.example", "müller-bäckerei.example",
                  "café.example.fr", "straße.example.de")
IMG_EXT = ("jpg", "png", "webp", "avif", "svg")


class Gen:
    """One document's generator; chapter() returns the next chapter."""

    def __init__(self, flavour, seed):
        self.f = flavour
        self.r = random.Random(seed).random
        self.n = 0  # chapters so far
        self.xml = flavour == "xhtml"
        self.legacy = flavour in ("sjis", "cp1252")

    # ------------------------------------------------------------ basics
    def i(self, n):
        return int(self.r() * n)

    def pick(self, seq):
        return seq[int(self.r() * len(seq))]

    def p(self, prob):
        return self.r() < prob

    def esc_text(self, s):
        return s.replace("&", "&amp;").replace("<", "&lt;")

    def words(self, n):
        f = self.f
        if f == "sjis":
            return "".join(self.pick(JA_WORDS) for _ in range(n))
        out = []
        for _ in range(n):
            if f == "cp1252" and self.p(0.18):
                out.append(self.pick(LATIN_WORDS))
            elif f != "cp1252" and self.p(0.04):
                out.append(self.pick(LATIN_WORDS))
            else:
                out.append(self.pick(EN_WORDS))
        s = " ".join(out)
        if f == "cp1252" and self.p(0.3):
            s += " " + self.pick(PUNCT_1252)
        return s

    def text(self, n):
        """Body text between links, escaped; in XHTML some of it written
        as character references."""
        s = self.esc_text(self.words(n))
        if self.xml and self.p(0.15):
            s += " &#8212; &#x201C;%s&#x201D;" % self.pick(EN_WORDS)
        elif self.f == "html5" and self.p(0.15):
            s += " &mdash; &ldquo;%s&rdquo;&nbsp;" % self.pick(EN_WORDS)
        return s

    # ------------------------------------------------------------ links
    def seg(self):
        f = self.f
        if f == "sjis":
            return self.pick(JA_SEGS) if self.p(0.35) else self.pick(EN_SEGS)
        if self.p(0.10 if f != "cp1252" else 0.25):
            return self.pick(LATIN_SEGS)
        if f != "cp1252" and self.p(0.02):
            return self.pick(("東京", "日本語", "Ωμέγα", "Москва", "서울"))
        if self.p(0.2):
            return "%s-%d" % (self.pick(EN_SEGS), self.i(100))
        return self.pick(EN_SEGS)

    def path(self, depth):
        return "/".join(self.seg() for _ in range(depth))

    def query(self):
        k = self.pick(("q", "page", "id", "lang", "sort", "ref", "utm_source",
                       "tag", "v"))
        if self.p(0.25):
            if self.f == "sjis":
                v = self.pick(JA_SEGS)
            elif self.f == "cp1252" or self.p(0.3):
                v = self.pick(LATIN_SEGS)
            else:
                v = self.pick(EN_WORDS)
        else:
            v = str(self.i(1000)) if self.p(0.5) else self.pick(EN_WORDS)
        q = "%s=%s" % (k, v)
        if self.p(0.35):
            q += "&%s=%d" % (self.pick(("p", "n", "limit", "offset")),
                             self.i(50))
        return q

    def host(self):
        if self.p(0.05):
            if self.f == "sjis":
                return self.pick(IDN_HOSTS_SJIS)
            if self.f == "cp1252":
                return self.pick(IDN_HOSTS_1252)
            return self.pick(IDN_HOSTS)
        return self.pick(HOSTS)

    def iri(self, kind=None):
        """One link, as a Unicode string (not yet escaped for markup)."""
        k = self.i(1000) if kind is None else kind
        if k < 250:    # relative path
            s = self.path(1 + self.i(3)) + self.pick(("", ".html", "/",
                                                      ".html", ".pdf"))
        elif k < 330:  # parent-relative
            s = "../" * (1 + self.i(2)) + self.path(1 + self.i(2)) + ".html"
        elif k < 500:  # root-relative
            s = "/" + self.path(1 + self.i(4))
        elif k < 780:  # absolute http(s)
            s = "%s://%s/%s" % ("https" if self.p(0.8) else "http",
                                self.host(), self.path(self.i(4)))
        elif k < 860:  # same-document
            s = "#%s-%d" % (self.pick(("sec", "fig", "note", "ref", "top")),
                            self.i(300))
        elif k < 890:  # protocol-relative
            s = "//%s/%s" % (self.pick(HOSTS), self.path(1 + self.i(2)))
        elif k < 910:
            s = "mailto:%s@%s" % (self.pick(("info", "press", "help")),
                                  self.pick(HOSTS))
        elif k < 920:
            s = "tel:+1-555-01%02d" % self.i(100)
        elif k < 990:  # query only, or a path with a query
            s = ("?" if self.p(0.3) else "/" + self.path(1 + self.i(2))
                 + "?") + self.query()
        else:          # the odd one out: findings for check
            s = self.pick(("/a file.html", "/100%zz", "HTTP://WWW.Example.ORG/",
                           "https://www.example.org:80/", "/docs/./a/../b",
                           "https://[2001:db8::7]/x"))
        if k < 780 and self.p(0.18):
            s += "?" + self.query()
        if k < 780 and self.p(0.12):
            s += "#%s-%d" % (self.pick(("sec", "s", "top", "c")), self.i(60))
        return s

    def attr(self, s, unquoted_ok=True):
        """The value as written in an attribute (quotes included)."""
        f = self.f
        if self.xml:
            s = s.replace("&", "&amp;").replace("<", "&lt;")
            if self.p(0.25):  # non-ASCII as character references
                s = "".join(c if ord(c) < 0x80 else
                            ("&#x%X;" % ord(c) if self.p(0.5)
                             else "&#%d;" % ord(c)) for c in s)
            return '"%s"' % s.replace('"', "&quot;")
        # HTML: & mostly as &amp;, sometimes bare (allowed before
        # letters not forming a reference), e-acute sometimes named
        if self.p(0.7):
            s = s.replace("&", "&amp;")
        if f == "html5" and self.p(0.2):
            s = s.replace("é", "&eacute;")
        if unquoted_ok and f == "html5" and self.p(0.15) and \
                not any(c in s for c in " \"'=<>`&"):
            return s
        return '"%s"' % s.replace('"', "&quot;")

    def img(self):
        return "%s/%s-%d.%s" % (self.pick(("img", "/media", "../images",
                                           "https://cdn.example.net/i")),
                                self.pick(("photo", "fig", "thumb", "map",
                                           "logo")),
                                self.i(500), self.pick(IMG_EXT))

    def srcset(self):
        base = self.img()
        stem, ext = base.rsplit(".", 1)
        if self.p(0.5):
            return "%s.%s 1x, %s@2x.%s 2x" % (stem, ext, stem, ext)
        return ", ".join("%s-%dw.%s %dw" % (stem, w, ext, w)
                         for w in (320, 640, 1280)[:1 + self.i(3)])

    # ------------------------------------------------------------ blocks
    def a(self):
        f = self.f
        extra = ""
        if f == "html5" and self.p(0.08):
            extra = " ping=%s" % self.attr(
                "/track?id=%d https://stats.example.com/p" % self.i(9999),
                False)
        if self.p(0.1):
            extra += ' hreflang="%s"' % self.pick(("en", "de", "fr", "ja"))
        return "<a href=%s%s>%s</a>" % (self.attr(self.iri()), extra,
                                        self.text(1 + self.i(3)))

    def para(self):
        parts = []
        for _ in range(3 + self.i(6)):
            parts.append(self.text(4 + self.i(10)))
            parts.append(self.a())
        parts.append(self.text(3 + self.i(6)) + ".")
        close = "</p>" if self.xml or self.p(0.6) else ""
        return "<p>%s%s\n" % (" ".join(parts), close)

    def nav(self):
        items = []
        for _ in range(4 + self.i(8)):
            li = "<li><a href=%s>%s</a>" % (self.attr(self.iri(self.i(500))),
                                            self.text(1 + self.i(2)))
            if self.xml or self.p(0.5):
                li += "</li>"
            items.append(li)
        return '<nav><ul class="toc">\n%s\n</ul></nav>\n' % "\n".join(items)

    def figure(self):
        f = self.f
        alt = self.esc_text(self.words(3)).replace('"', "")
        if f == "html5" and self.p(0.5):
            if self.p(0.4):
                return ("<figure><picture><source type=\"image/webp\" "
                        "srcset=%s><img src=%s alt=\"%s\" loading=lazy>"
                        "</picture><figcaption>%s</figcaption></figure>\n" % (
                            self.attr(self.srcset(), False),
                            self.attr(self.img()), alt, self.text(6)))
            return ("<figure><img src=%s srcset=%s sizes=\"(max-width: 600px) "
                    "100vw, 50vw\" alt=\"%s\"><figcaption>%s</figcaption>"
                    "</figure>\n" % (self.attr(self.img()),
                                     self.attr(self.srcset(), False), alt,
                                     self.text(6)))
        end = "/>" if self.xml else ">"
        return ('<div class="figure"><img src=%s alt="%s" width="%d" '
                'height="%d"%s<p class="caption">%s</p></div>\n' % (
                    self.attr(self.img()), alt, 100 + self.i(900),
                    100 + self.i(700), end, self.text(6)))

    def table(self):
        rows = []
        for _ in range(3 + self.i(5)):
            rows.append("<tr><td><a href=%s>%s</a></td><td>%s</td>"
                        "<td><a href=%s>%s</a></td></tr>" % (
                            self.attr(self.iri()), self.text(2),
                            self.text(3), self.attr(self.iri()),
                            self.text(1)))
        return "<table>\n%s\n</table>\n" % "\n".join(rows)

    def misc(self):
        f = self.f
        k = self.i(6)
        if k == 0:
            return "<blockquote cite=%s><p>%s</p></blockquote>\n" % (
                self.attr(self.iri(self.i(780))), self.text(12))
        if k == 1:
            return ('<form action=%s method="get"><input type="text" '
                    'name="q"%s<input type="image" src=%s alt="go"%s'
                    "</form>\n" % (self.attr("/" + self.path(2)),
                                   "/>" if self.xml else ">",
                                   self.attr(self.img()),
                                   "/>" if self.xml else ">"))
        if k == 2 and self.xml:
            return ('<svg xmlns="http://www.w3.org/2000/svg" '
                    'xmlns:xlink="http://www.w3.org/1999/xlink" width="16" '
                    'height="16"><use xlink:href="#icon-%d"/><a xlink:href=%s>'
                    '<text x="0" y="12">%s</text></a></svg>\n' % (
                        self.i(40), self.attr(self.iri()), self.pick(EN_WORDS)))
        if k == 2 and f == "html5":
            return ("<video controls poster=%s><source src=%s type=\"video/"
                    "mp4\"><track kind=captions src=%s srclang=en></video>\n"
                    % (self.attr(self.img()),
                       self.attr("/media/clip-%d.mp4" % self.i(100)),
                       self.attr("/media/clip-%d.vtt" % self.i(100))))
        if k == 3:
            end = "></iframe>" if not self.xml else "></iframe>"
            return "<iframe src=%s title=\"%s\"%s\n" % (
                self.attr("https://%s/embed/%d" % (self.pick(HOSTS),
                                                   self.i(9999))),
                self.pick(EN_WORDS), end)
        return "<ul>\n%s\n</ul>\n" % "\n".join(
            "<li>%s <a href=%s>%s</a>%s" % (
                self.text(3), self.attr(self.iri()), self.text(2),
                "</li>" if self.xml or self.p(0.5) else "")
            for _ in range(2 + self.i(4)))

    def chapter(self):
        self.n += 1
        n = self.n
        out = []
        if self.xml:
            out.append('<div class="chapter" id="ch%d" xml:base="%s/">\n' % (
                n, self.pick(EN_SEGS) + "-%d" % n))
        else:
            out.append('<div class="chapter" id="ch%d">\n' % n)
        out.append('<h2 id="sec-%d">%s <a href="#top">%s</a></h2>\n' % (
            n, self.text(4), "top" if self.f != "sjis" else "上へ"))
        out.append(self.nav())
        for _ in range(3 + self.i(4)):
            k = self.i(10)
            if k < 5:
                out.append(self.para())
            elif k < 7:
                out.append(self.figure())
            elif k < 8:
                out.append(self.table())
            else:
                out.append(self.misc())
        out.append("</div>\n")
        return "".join(out)

    # ------------------------------------------------------------ frame
    def head(self):
        f = self.f
        title = self.text(5)
        css = self.attr("/css/site.css")
        js = self.attr("/js/app-%d.js" % self.i(100))
        if self.xml:
            return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                    "<!DOCTYPE html>\n"
                    '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="en" '
                    'xml:base="https://www.example.org/docs/">\n'
                    "<head><title>%s</title>\n"
                    '<link rel="stylesheet" href=%s/>\n'
                    '<script src=%s></script>\n'
                    '</head>\n<body id="top">\n' % (title, css, js))
        if f == "html5":
            return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n'
                    '<meta charset="utf-8">\n<title>%s</title>\n'
                    '<base href="https://www.example.org/docs/">\n'
                    '<meta http-equiv="refresh" content="600; url=/docs/">\n'
                    '<link rel=stylesheet href=%s>\n'
                    '<link rel="preload" as="image" href="/img/hero.jpg" '
                    'imagesrcset="/img/hero.jpg 1x, /img/hero@2x.jpg 2x">\n'
                    '<script src=%s defer></script>\n'
                    '</head>\n<body id=top>\n' % (title, css, js))
        if f == "sjis":
            return ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 '
                    'Transitional//EN">\n<html lang="ja">\n<head>\n'
                    '<meta charset="Shift_JIS">\n<title>%s</title>\n'
                    '<base href="http://www.example.jp/kyoto/">\n'
                    '<link rel="stylesheet" href=%s>\n'
                    '<script type="text/javascript" src=%s></script>\n'
                    '</head>\n<body id="top">\n' % (title, css, js))
        return ('<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 '
                'Transitional//EN">\n<html lang="fr">\n<head>\n'
                '<meta http-equiv="Content-Type" content="text/html; '
                'charset=windows-1252">\n<title>%s</title>\n'
                '<base href="http://www.example.fr/carte/">\n'
                '<link rel="stylesheet" href=%s>\n'
                '<script type="text/javascript" src=%s></script>\n'
                '</head>\n<body id="top">\n' % (title, css, js))

    def tail(self):
        return '<p class="footer"><a href="#top">top</a></p>\n</body>\n</html>\n'


def generate(outdir, flavour, sizes_mb, seed, verbose):
    g = Gen(flavour, seed)
    enc = ENCODING[flavour]
    sizes = sorted(sizes_mb)
    outs = []
    for mb in sizes:
        name = os.path.join(outdir, "%s-%d.%s" % (flavour, mb, EXT[flavour]))
        outs.append([mb * 1000000, name, open(name + ".tmp", "wb"), 0])
    head = g.head().encode(enc)
    tail = g.tail().encode(enc)
    for o in outs:
        o[2].write(head)
        o[3] = len(head)
    written = len(head)
    pending = []
    pending_len = 0
    while outs:
        ch = g.chapter().encode(enc)
        pending.append(ch)
        pending_len += len(ch)
        # write in blocks; a file that reaches its size is closed after
        # the chapter that crossed it
        if pending_len < (1 << 20) and written + pending_len < outs[0][0]:
            continue
        for ch in pending:
            for o in outs:
                o[2].write(ch)
            written += len(ch)
            while outs and written >= outs[0][0]:
                o = outs.pop(0)
                o[2].write(tail)
                o[2].close()
                os.replace(o[1] + ".tmp", o[1])
                if verbose:
                    print("%s: %d bytes, %d chapters" % (
                        o[1], written + len(tail), g.n), file=sys.stderr)
            if not outs:
                break
        pending = []
        pending_len = 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--outdir", default=".")
    ap.add_argument("-s", "--seed", type=int, default=20240601)
    ap.add_argument("--sizes", default="20,200",
                    help="sizes in MB, comma-separated (default 20,200)")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("flavours", nargs="*", default=list(FLAVOURS))
    a = ap.parse_args()
    sizes = [int(x) for x in a.sizes.split(",") if x]
    for f in a.flavours:
        if f not in FLAVOURS:
            ap.error("unknown flavour %r (one of %s)" % (f, ", ".join(FLAVOURS)))
    os.makedirs(a.outdir, exist_ok=True)
    for f in a.flavours:
        generate(a.outdir, f, sizes, a.seed, a.verbose)


if __name__ == "__main__":
    main()
