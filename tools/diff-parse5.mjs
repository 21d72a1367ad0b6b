// diff-parse5.mjs - compare the HTML attribute links "xiri links" finds
// with those parse5 (a WHATWG HTML parser in JavaScript) finds in the same
// page: which elements and attributes hold them, their values (references
// decoded, line ends preprocessed) and the line and column where each
// value starts, and the base each is resolved against (the first base
// element with an href in parse5's tree, outside templates).
//
// Usage: node tools/diff-parse5.mjs XIRI [--pages=N] [--seed=S] [FILE...]
//
//   XIRI     the xiri program (an uninstalled one needs XIRI_SCHEMA_DIR
//            and LD_LIBRARY_PATH set)
//   FILE     pages to compare, read as UTF-8 (xiri is given --encoding
//            =utf-8); without files, N random pages (default 300) of tags,
//            attributes and references chosen to exercise the tokenizer:
//            quoting, named references with and without ';', numeric
//            ones out of range, CR LF and CR, '/' between attributes,
//            comments, raw text elements, templates, tables.
//
// Needs parse5 (npm install parse5, in this directory or a parent's
// node_modules); not part of make check: neither Node nor parse5 is a
// build dependency.  Exit status 0 when they agree, 1 when they do not
// (the differences listed), 2 on a usage error.
//
// Known and left out, each a deliberate difference of xiri's:
// - content of noscript, iframe and noembed: parse5 (scripting on) reads
//   it as raw text; xiri reads it as markup, whose links are real for the
//   readers without scripts or frames (walk.c, above html_text); the
//   random pages use none of them;
// - a form start tag inside an open form: the tree builder drops it
//   (WHATWG HTML 13.2.6.4.7), xiri reads tags, not the tree: its action
//   is still reported;
// - a value that begins with what the URL parser strips (C0 controls and
//   spaces): xiri reports it from its first kept character, so its place
//   is not compared;
// - empty values, which xiri lists and parse5's side leaves out here;
// - the base of a link before the base element: a browser resolves it
//   against that base, xiri against the document's address, with a
//   warning (base-after-links);
// - MathML elements (a MathML base's href: xiri lists it, by its name).
import { createRequire } from 'module';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'fs';
import { execFileSync } from 'child_process';
import { tmpdir } from 'os';
import { join, resolve as resolvePath } from 'path';
import { pathToFileURL } from 'url';

const require = createRequire(process.cwd() + '/');
let parse;
try {
  ({ parse } = require('parse5'));
} catch (e) {
  console.error('diff-parse5: parse5 not found; run "npm install parse5"');
  process.exit(2);
}

const args = process.argv.slice(2);
const xiri = args.shift();
let pages = 300, seed = 1;
const files = [];
for (const a of args) {
  if (a.startsWith('--pages=')) pages = Number(a.slice(8));
  else if (a.startsWith('--seed=')) seed = Number(a.slice(7)) >>> 0;
  else files.push(a);
}
if (!xiri || !(pages > 0)) {
  console.error('usage: node tools/diff-parse5.mjs XIRI [--pages=N] [--seed=S] [FILE...]');
  process.exit(2);
}

// The attributes compared: those of xiri's html preset that hold one URL.
const ATTRS = new Set(['a@href', 'area@href', 'link@href', 'base@href', 'img@src', 'script@src',
  'iframe@src', 'embed@src', 'form@action', 'source@src', 'video@src', 'audio@src', 'track@src',
  'q@cite', 'blockquote@cite', 'del@cite', 'ins@cite', 'object@data', 'video@poster',
  'button@formaction', 'input@formaction', 'body@background']);

// ---------------------------------------------------------------- pages
function rnd() {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) / (1 << 24);
}
const pick = a => a[Math.floor(rnd() * a.length)];
const PIECES = ['a.html', 'x y.png', '&amp;', '&amp', '&lt;b', '&copy', '&copy;x', '&notit;', '&notin;',
  '&#65;', '&#x41', '&#0;', '&#x80;', '&#xD800;', '&#1114112;', '&#13;', '\r\n', '\r', '\t', ' ', '"',
  "'", '>', '<', '=', '`', '/', '?q=1&b=2', '&b=2', '&lang=x', '&para=1', '\u00e9', '\u65e5\u672c',
  '&#x;', '&#;', '&', '&&', '&;', '#f', '&AMP;', '&AMP', '&ampx', '&ap;', '\\', '%zz', '&nbsp', '&frac12;'];
const ELEMENTS = { a: 'href', img: 'src', link: 'href', script: 'src', form: 'action', source: 'src',
  q: 'cite', object: 'data', area: 'href' };
const FILL = ['text', '<p>', '</p>', '<!-- c -->', '<!-- <a href=x> -->', '<!--->', '<!-->',
  '<?pi <a href=p>?>', '<title><a href=t></title>', '<textarea><a href=t></textarea>',
  '<script>var a="<a href=s>";</script>', '<style>/*<a href=st>*/</style>',
  '<template><a href=tp></a></template>', '<table><a href=tb></a></table>', '<![CDATA[<a href=cd>]]>',
  '<xmp><a href=x></xmp>', '<br/>', '</a>', '&lt;a href=n&gt;', '<!DOCTYPE x>', '<a href="', "<a b='", '<',
  '<base href="http://b1.example/d/">', '<BASE HREF=/rel/>', '<base target=_top>', '<base href>',
  '<template><base href="http://t.example/"></template>', '<svg><base href="http://s.example/"/></svg>',
  '<base href="  ../up/x ">', '<base href="http://b2.example/e/f">', '<!-- <base href="http://c.example/"> -->',
  '<title><base href="http://ti.example/"></title>', '<math><mi><base href="http://mi.example/"></mi></math>', '<template><p></template>'];

function attribute(el) {
  const name = ELEMENTS[el.toLowerCase()];
  const nm = pick([name, name, name.toUpperCase(), 'title', 'class']);
  let v = '';
  for (let n = Math.floor(rnd() * 5); n > 0; n--) v += pick(PIECES);
  const q = pick(['"', "'", '', '"']);
  if (q === '')
    return nm + pick(['=', ' = ']) + (v.replace(/[\s"'<>=`]/g, '') || 'u');
  return nm + pick(['=', ' =', '= ']) + q + v.split(q).join('') + q;
}
function page() {
  let d = pick(['<!DOCTYPE html>', '', '<!doctype html>']) + '<meta charset=utf-8>\n';
  for (let n = 3 + Math.floor(rnd() * 10); n > 0; n--) {
    const el = pick(Object.keys(ELEMENTS).concat(['A', 'IMG']));
    let t = '<' + el;
    for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--)
      t += pick([' ', '\n', '\t', '/', ' /', '\r\n']) + attribute(el);
    t += pick(['>', ' >', '/>', ' />']);
    d += pick([t, t, pick(FILL), '\n', ' ']);
  }
  return d;
}

// ---------------------------------------------------------------- compare
// The document's base URL as HTML sets it (13.2.6 tree order; "the
// frozen base URL"): the first base element of HTML's namespace with an
// href in the tree (not in a template's contents), that href parsed
// against the document's address; none (null) when there is none.  Each
// link gets it only if it comes after that element in the text: xiri
// resolves the links before it against the document's address, with a
// warning (base-after-links), where a browser uses the base for all.
function frozenBase(doc, docUrl) {
  let found = null;
  const walk = node => {
    if (found) return;
    if (node.tagName === 'base' && node.namespaceURI === 'http://www.w3.org/1999/xhtml' &&
        node.attrs.some(a => a.name === 'href')) {
      found = node;
      return;
    }
    for (const c of node.childNodes || []) walk(c);
  };
  walk(doc);
  if (!found || !found.sourceCodeLocation) return null;
  const href = found.attrs.find(a => a.name === 'href').value;
  let url;
  try {
    url = new URL(href, docUrl).href;
  } catch (e) {
    url = docUrl;
  }
  return { at: found.sourceCodeLocation.startOffset, url };
}

function parse5Links(text, docUrl) {
  // lines end at LF, CR LF and a CR alone (13.2.3.5); columns count code
  // points
  const starts = [0];
  for (let i = 0; i < text.length; i++)
    if (text[i] === '\n' || (text[i] === '\r' && text[i + 1] !== '\n')) starts.push(i + 1);
  const place = off => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const m = (lo + hi + 1) >> 1;
      if (starts[m] <= off) lo = m; else hi = m - 1;
    }
    return [lo + 1, [...text.slice(starts[lo], off)].length + 1];
  };
  const links = [], seen = new Set();
  const walk = node => {
    const loc = node.sourceCodeLocation;
    if (node.tagName && loc && loc.attrs && node.namespaceURI === 'http://www.w3.org/1999/xhtml') {
      for (const a of node.attrs) {
        const al = loc.attrs[a.name];
        // (a formatting element the tree builder reopens is a clone,
        // with the same place: 13.2.4.3)
        if (!ATTRS.has(node.tagName + '@' + a.name) || !al || seen.has(al.startOffset)) continue;
        seen.add(al.startOffset);
        // parse5's location of an attribute may end after its name: the
        // value starts after '=', white space and the quote
        const m = /^[^=]*=[ \t\n\f\r]*["']?/.exec(text.slice(al.startOffset));
        const offset = al.startOffset + (m ? m[0].length : 0);
        const [line, column] = place(offset);
        links.push({ element: node.tagName, attribute: a.name, value: a.value, line, column, offset });
      }
    }
    for (const c of node.childNodes || []) walk(c);
    if (node.content) walk(node.content);
  };
  const doc = parse(text, { sourceCodeLocationInfo: true });
  walk(doc);
  const base = frozenBase(doc, docUrl);
  for (const l of links)
    l.base = base && l.offset > base.at ? base.url : docUrl;
  return links;
}

function xiriLinks(file) {
  let out;
  try {
    out = execFileSync(xiri, ['links', '-q', '--format=json', '--encoding=utf-8', file],
                       { maxBuffer: 1 << 28 });
  } catch (e) {
    out = e.stdout || Buffer.alloc(0);
  }
  return out.toString().split('\n').filter(Boolean).map(l => JSON.parse(l))
    .filter(r => r.attribute && r.value !== '' &&
            ATTRS.has(r.element.toLowerCase() + '@' + r.attribute.toLowerCase()));
}

const strip = s => s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');

function compare(file) {
  const text = readFileSync(file, 'utf8');
  const got = xiriLinks(file), used = new Set(), out = [];
  const docUrl = pathToFileURL(resolvePath(file)).href;
  for (const w of parse5Links(text, docUrl)) {
    const v = strip(w.value);
    if (v === '') continue;
    const r = got.find(g => !used.has(g) && g.value === v && g.element.toLowerCase() === w.element &&
                       (v !== w.value || (g.line === w.line && g.column === w.column)));
    if (r) {
      used.add(r);
      // (a base element's own href is resolved against the document)
      if (w.element !== 'base' && r.base !== w.base)
        out.push(`base    ${w.line}:${w.column} ${w.element}@${w.attribute}: parse5 ${w.base} xiri ${r.base}`);
    } else {
      out.push(`missing ${w.line}:${w.column} ${w.element}@${w.attribute} ${JSON.stringify(w.value)}`);
    }
  }
  for (const g of got)
    if (!used.has(g) && !(g.element.toLowerCase() === 'form' && g.attribute.toLowerCase() === 'action'))
      out.push(`extra   ${g.line}:${g.column} ${g.element}@${g.attribute} ${JSON.stringify(g.value)}`);
  return out;
}

let dir = null;
if (files.length === 0) {
  dir = mkdtempSync(join(tmpdir(), 'diff-parse5-'));
  for (let i = 0; i < pages; i++) {
    const f = join(dir, `page${i}.html`);
    writeFileSync(f, page());
    files.push(f);
  }
}
let differ = 0;
for (const f of files) {
  const d = compare(f);
  if (d.length === 0) continue;
  differ++;
  console.log(`${f}:`);
  for (const line of d) console.log('  ' + line);
  if (dir) console.log('  page: ' + JSON.stringify(readFileSync(f, 'utf8')));
}
if (dir) rmSync(dir, { recursive: true });
console.log(`# ${files.length} pages, ${differ} differ`);
process.exit(differ ? 1 : 0);
