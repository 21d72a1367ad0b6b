#!/usr/bin/env python3
"""diff-node.py - compare how xiri judges HTML links with what Node's
WHATWG URL parser (new URL(value, base)) does, over generated pairs.

Usage: tools/diff-node.py BUILD_DIR [--mode=check|resolve|value] [--show=N]

  check    (default) xiri_check_link reports an error (severity error)
           exactly where new URL(value, base) throws
  resolve  xiri_link_resolve fails exactly where it throws
  value    xiri_check (the html profile, no base: "xiri iri check
           --profile html") reports an error exactly where new URL(value)
           throws, for the pairs without a base

BUILD_DIR is a configured and built tree (its .libs/libxiri.so is used).
Needs node (20 or later) and a C compiler; reads nothing from the network.
The pairs combine schemes (special, file, not special, in upper case or
with a tab or newline inside), runs of slashes, backslashes, tabs and
newlines, hosts (userinfo, ports, IPv4, IP literals, escapes, forbidden
code points, non-ASCII), paths and bases (http, https, file, not special,
opaque, none), some with C0 controls and spaces around them.  Two classes
are known and left out: xn-- labels that are no A-label (browsers of the
day and ICU differ; xiri warns: fake-a-label), and Node's resolving a
reference with a fragment against mailto:x, which the URL Standard fails.
A relative value without a base is skipped.
Exit status: 0 when they agree, 1 when they do not (examples listed), 2 on
a usage error.  Not part of make check: Node is not a build dependency.
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile

HARNESS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xiri.h>

static size_t unhex(const char *h, char *out)
{
    size_t n = 0;
    unsigned v;

    while (h[0] && h[1] && h[0] != '\t' && h[0] != '\n') {
        sscanf(h, "%2x", &v);
        out[n++] = (char)v;
        h += 2;
    }
    out[n] = 0;
    return n;
}

int main(int argc, char **argv)
{
    static char line[1 << 16], v[1 << 15], b[1 << 15];
    int resolve = argc > 1 && strcmp(argv[1], "resolve") == 0;
    int value = argc > 1 && strcmp(argv[1], "value") == 0;
    struct xiri_ctx *ctx;

    if (xiri_ctx_new(&ctx) != XIRI_OK)
        return 2;
    while (fgets(line, sizeof(line), stdin)) {
        char *tab = strchr(line, '\t'), *out = NULL;
        struct xiri_link l;
        size_t vn, bn, n;
        int worst = -1;

        if (!tab)
            continue;
        vn = unhex(line, v);
        bn = unhex(tab + 1, b);
        memset(&l, 0, sizeof(l));
        l.value = v;
        l.value_len = vn;
        l.base = bn ? b : NULL;
        l.profile = XIRI_PROFILE_HTML;
        l.element = "a";
        l.attribute = "href";
        if (resolve) {
            printf("%s\n", xiri_link_resolve(ctx, &l, &out, &n, NULL) ==
                               XIRI_OK ? "OK" : "FAIL");
            xiri_str_free(out);
        } else if (value) {
            xiri_check(ctx, v, vn, XIRI_PROFILE_HTML, NULL, NULL, &worst);
            printf("%s\n", worst == XIRI_SEV_ERROR ? "FAIL" : "OK");
        } else {
            xiri_check_link(ctx, NULL, &l, NULL, NULL, &worst);
            printf("%s\n", worst == XIRI_SEV_ERROR ? "FAIL" : "OK");
        }
    }
    xiri_ctx_free(ctx);
    return 0;
}
"""

NODE = """
const rl = require('readline').createInterface({input: process.stdin});
rl.on('line', l => {
    const [v, b] = JSON.parse(l);
    try { new URL(v, b === null ? undefined : b); console.log('OK'); }
    catch (e) { console.log('FAIL'); }
});
"""

SCHEMES = ["", "http:", "https:", "HTTP:", "ws:", "ftp:", "file:", "sc:",
           "ht\ttp:", "http\n:", "sc\t:"]
SLASHES = ["", "/", "//", "///", "////", "\\", "\\\\", "/\\", "\\/",
           "\n//", "/\t/", "//\r/", "\t"]
HOSTS = ["a", "a%b", "a:99999", "a:12", "1.2.3.400", "0x1.2", "a b", "a|b",
         "[x]", "[::1]", "a@", "@a", "u:p@h", "a:", "", "%", "a%41",
         "a.b.", "\u00e9-", "\u00df.de", "h\u00ad", "a\\b", "a\\@x",
         "a\\:99999", "u@a\\@b", "a%\\b", "a\\ b", "a\tb", "\x14z",
         "a:8\\0", "h:\\p", "a\\%5Cb", "a\t%09b", "\u00e9..1", "\uff0e2",
         "\u00e9.1", "~\u00e9.2", "\u30022255"]
PATHS = ["", "/", "/p?q#f", "?q", "#f"]
AROUND = [(" ", " "), ("\x01", ""), ("", "\x1f"), ("\x02 ", "\r\x00")]
BASES = [None, "http://e.org/d/", "https://e.org/", "file:///d/",
         "sc://h/", "sc:/x", "mailto:x"]


def known(value, base):
    """The classes left out (see the header)."""
    return "xn--" in value.lower() or (base == "mailto:x" and "#" in value)


def c0_strip(value):
    """value without the C0 controls and spaces around it."""
    return value.strip("".join(chr(c) for c in range(0x21)))


def has_scheme(value):
    v = value.replace("\t", "").replace("\n", "").replace("\r", "")
    head = v.split(":", 1)[0]
    return ":" in v and head[:1].isalpha() and all(
        c.isalnum() or c in "+-." for c in head)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[1:]
                if a.startswith("--") and "=" in a)
    if len(args) != 1 or opts.get("mode", "check") not in ("check", "resolve",
                                                        "value"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    build = os.path.abspath(args[0])
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    libs = os.path.join(build, ".libs")
    mode = opts.get("mode", "check")
    show = int(opts.get("show", "30"))

    pairs = []
    for s, sl, h, p, b in itertools.product(SCHEMES, SLASHES, HOSTS, PATHS,
                                             BASES):
        v = (s + sl + h + p).strip(" ")
        if v and (b is not None or has_scheme(v)) and not known(v, b):
            pairs.append((v, b))
    # what browsers remove around a URL first (WHATWG URL 4.4 step 1)
    for s, sl, h, p, b, (pre, post) in itertools.product(
            SCHEMES, SLASHES, HOSTS, ["", "/p?q#f"], BASES[:2] + BASES[4:5],
            AROUND):
        v = pre + (s + sl + h + p).strip(" ") + post
        if (b is not None or has_scheme(c0_strip(v))) and not known(v, b):
            pairs.append((v, b))
    pairs = list(dict.fromkeys(pairs))
    if mode == "value":
        pairs = [(v, b) for v, b in pairs if b is None]

    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "h.c")
        exe = os.path.join(tmp, "h")
        with open(src, "w") as f:
            f.write(HARNESS)
        subprocess.run(["cc", "-o", exe, src,
                        "-I" + os.path.join(top, "src", "include"),
                        "-L" + libs, "-lxiri"], check=True)
        env = dict(os.environ, LD_LIBRARY_PATH=libs)
        inp = "".join(v.encode().hex() + "\t" + (b or "").encode().hex() +
                      "\n" for v, b in pairs)
        ours = subprocess.run([exe, mode], input=inp.encode(), env=env,
                              capture_output=True, check=True
                              ).stdout.decode().split("\n")
    node = subprocess.run(["node", "-e", NODE], capture_output=True,
                          check=True,
                          input="".join(json.dumps([v, b]) + "\n"
                                        for v, b in pairs).encode()
                          ).stdout.decode().split("\n")
    bad = [(v, b, x, y) for (v, b), x, y in zip(pairs, ours, node) if x != y]
    print("%d pairs, %d disagree (mode %s)" % (len(pairs), len(bad), mode))
    for v, b, x, y in bad[:show]:
        print("  %r against %r: xiri %s, node %s" % (v, b, x, y))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
