// diff-csstok.mjs - compare the url()s (and image-set() strings) "xiri
// links" finds in random style sheets with those the tokens of
// @csstools/css-tokenizer (an implementation of CSS Syntax Level 3's
// tokenizer) give: a <url-token>; a url( function whose first token after
// white space is a <string-token>; a <string-token> directly inside an
// image-set() or -webkit-image-set() (CSS Images Module Level 4; not one
// inside another image-set(), and none after a bad string or bad url in
// it, as xiri reads them).  URLs written with an escape (xiri leaves them
// with a note) and empty ones are left out on both sides; each sheet is
// the content of an HTML style element (raw text: no references), without
// '@' (the rules of @import are not compared).
//
// Usage: node tools/diff-csstok.mjs XIRI [--sheets=N] [--seed=S]
//
// XIRI is the xiri program (an uninstalled one needs XIRI_SCHEMA_DIR and
// LD_LIBRARY_PATH set).  Needs @csstools/css-tokenizer (npm install
// @csstools/css-tokenizer); not part of make check.  Exit status 0 when
// they agree, 1 when they do not (the first 15 differences listed), 2 on
// a usage error.
import { createRequire } from 'module';
import { writeFileSync, mkdtempSync, rmSync } from 'fs';
import { execFileSync } from 'child_process';
import { tmpdir } from 'os';
import { join } from 'path';

const require = createRequire(process.cwd() + '/');
let tokenize;
try {
  ({ tokenize } = require('@csstools/css-tokenizer'));
} catch (e) {
  console.error('diff-csstok: @csstools/css-tokenizer not found; run "npm install @csstools/css-tokenizer"');
  process.exit(2);
}
const args = process.argv.slice(2);
const xiri = args.shift();
let sheets = 500, seed = 1;
for (const a of args) {
  if (a.startsWith('--sheets=')) sheets = Number(a.slice(9));
  else if (a.startsWith('--seed=')) seed = Number(a.slice(7)) >>> 0;
  else { sheets = NaN; }
}
if (!xiri || !(sheets > 0)) {
  console.error('usage: node tools/diff-csstok.mjs XIRI [--sheets=N] [--seed=S]');
  process.exit(2);
}

const rnd = () => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) / (1 << 24); };
const pick = a => a[Math.floor(rnd() * a.length)];
const P = ['url(', 'URL(', 'u\\72l(', 'url( ', '"', "'", '(', ')', ' ', '\n', '\t', 'a.png', 'b c', '\u00e9', '\\', '\\)',
  '\\"', '/*', '*/', 'image-set(', '-webkit-image-set(', 'Image-Set(', 'type(', '1x', ',', ';', '{', '}', '#', 'x:',
  'cross-fade(', '<!--', '-->', 'my-image-set(', 'url', '-', '1', 'i\\6d age-set(', '"d.png"', "'e.png'", '\\\n', '\r\n', 'f'];
function css() {
  let s = '';
  for (let n = 1 + Math.floor(rnd() * 25); n > 0; n--) s += pick(P);
  return s;
}
const trim = s => s.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
function expected(s) {
  const toks = tokenize({ css: s });
  const out = [];
  let set = 0; // parens open inside an image-set(), 0 outside one
  for (let i = 0; i < toks.length; i++) {
    const [type, raw, , , val] = toks[i];
    if (type === 'url-token') {
      if (!raw.slice(raw.indexOf('(') + 1).includes('\\')) out.push(trim(val.value));
    } else if (type === 'bad-url-token') {
      if (set) set = 0;
    } else if (type === 'function-token' && val.value.toLowerCase() === 'url') {
      // 4.3.4: url( then white space then a string: a function
      let k = i + 1;
      while (toks[k] && toks[k][0] === 'whitespace-token') k++;
      if (toks[k] && toks[k][0] === 'string-token') {
        if (!toks[k][1].includes('\\')) out.push(trim(toks[k][4].value));
      } else if (toks[k] && toks[k][0] === 'bad-string-token' && set) {
        set = 0;
      }
      if (set) set++;
    } else if (type === 'function-token' && /^(-webkit-)?image-set$/i.test(val.value) && set === 0) {
      set = 1;
    } else if (type === 'function-token' || type === '(-token') {
      if (set) set++;
    } else if (type === ')-token') {
      if (set) set--;
    } else if (type === 'string-token' && set === 1) {
      if (!raw.includes('\\')) out.push(trim(val.value));
    } else if (type === 'bad-string-token' && set) {
      set = 0;
    }
  }
  return out.filter(u => u !== '');
}
const dir = mkdtempSync(join(tmpdir(), 'diff-csstok-'));
let bad = 0;
for (let i = 0; i < sheets; i++) {
  const s = css().replace(/<\/?style/gi, 'x');
  const f = join(dir, `s${i}.html`);
  writeFileSync(f, '<!DOCTYPE html><meta charset=utf-8><style>' + s + '</style>\n');
  let out;
  try {
    out = execFileSync(xiri, ['links', '-q', '--format=json', f], { stdio: ['ignore', 'pipe', 'ignore'] });
  } catch (e) {
    out = e.stdout || Buffer.alloc(0);
  }
  const got = out.toString().split('\n').filter(Boolean).map(l => JSON.parse(l).value);
  const want = expected(s);
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    bad++;
    if (bad <= 15)
      console.log(JSON.stringify(s), '\n  tokenizer', JSON.stringify(want), '\n  xiri     ', JSON.stringify(got));
  }
}
rmSync(dir, { recursive: true });
console.log(`# ${sheets} sheets, ${bad} differ`);
process.exit(bad ? 1 : 0);
