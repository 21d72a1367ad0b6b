#!/usr/bin/env python3
# lxml_rewrite.py - the pipeline a user would otherwise write for "xiri
# rewrite" (bench/rewritebench.sh): parse with lxml, resolve every href/src
# against its base (xml:base, <base href>) with urljoin, escape it with
# quote, write the tree back.  No network.
# Usage: lxml_rewrite.py FILE [BASE]  (output on stdout)
import os
import sys
from urllib.parse import quote, urljoin

import lxml.etree
import lxml.html

SAFE = ":/?#[]@!$&'()*+,;=%~"


def main():
    path = sys.argv[1]
    base = sys.argv[2] if len(sys.argv) > 2 else \
        "file://" + quote(os.path.abspath(path))
    if path.endswith((".xhtml", ".xml")):
        tree = lxml.etree.parse(path, base_url=base)
        out = lambda: lxml.etree.tostring(tree, encoding="utf-8")
    else:
        tree = lxml.html.parse(path, base_url=base)
        out = lambda: lxml.html.tostring(tree, encoding="utf-8")
    root = tree.getroot()
    for el in root.iter():
        attrib = getattr(el, "attrib", None)
        if not attrib:
            continue
        for name in ("href", "src"):
            v = attrib.get(name)
            if v is not None:
                # el.base: xml:base in XML, <base href> in HTML
                attrib[name] = quote(urljoin(el.base or base, v.strip()),
                                     safe=SAFE)
    sys.stdout.buffer.write(out())


if __name__ == "__main__":
    main()
