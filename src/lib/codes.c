/* codes.c - the catalogue of check codes: for each stable code its default
 * severity, the spec section it comes from, a one-line summary and a
 * paragraph saying what it means, why it matters and what to do.  The codes
 * are public and permanent: never rename or reuse one. */
#include "common.h"
#include "codes.h"

#include <stdio.h>
#include <stdlib.h>

#define ERR XIRI_SEV_ERROR
#define WARN XIRI_SEV_WARNING
#define NOTE XIRI_SEV_NOTE

/* clang-format off: one entry per block reads better than its layout */
static const struct xiri_code_info code_table[CODE_COUNT] = {
    [CODE_INVALID_CHAR] =
        {
            "invalid-char",
            ERR,
            "RFC 3987 2.2",
            "a character the grammar does not allow at this position",
            "The IRI-reference grammar of RFC 3987 section 2.2 (RFC 3986 "
            "section 3 for URIs) lists the characters each component may "
            "hold; this one is not among them here: for example a space, "
            "'<', '>', '\"', '{', '}', '|', '\\', '^' or '`', a '[' outside "
            "the host, or a second '#'.  Parsers reject such references or "
            "split them in unexpected places.  Percent-encode the character "
            "(its UTF-8 octets written %HH); the message gives the encoding.",
        },
    [CODE_INVALID_PCT] =
        {
            "invalid-pct",
            ERR,
            "RFC 3986 2.1",
            "'%' not followed by two hexadecimal digits",
            "In URIs and IRIs '%' only starts a percent-encoding: '%' and "
            "two hexadecimal digits (RFC 3986 section 2.1).  A lone '%' makes "
            "the reference invalid, and decoders disagree on what it means.  "
            "Write a literal percent sign as %25.",
        },
    [CODE_INVALID_UTF8] =
        {
            "invalid-utf8",
            ERR,
            "RFC 3629 3",
            "bytes that are not UTF-8",
            "An IRI is a sequence of characters; xiri reads it as UTF-8 (RFC "
            "3629), and these bytes are not a valid UTF-8 sequence (a stray "
            "continuation byte, a truncated or overlong sequence, a "
            "surrogate, or a value above U+10FFFF).  The text was probably "
            "stored in a legacy encoding.  Transcode it to UTF-8; if the "
            "bytes are data, percent-encode each one as %HH.",
        },
    [CODE_NON_ASCII_IN_URI] =
        {
            "non-ascii-in-uri",
            ERR,
            "RFC 3986 2",
            "a non-ASCII character in a URI",
            "URIs (RFC 3986) consist of US-ASCII characters only; characters "
            "beyond it are allowed in IRIs (RFC 3987), not URIs.  The "
            "reference was checked under the uri profile, so software that "
            "only takes URIs may reject or mangle it.  Map it to a URI with "
            "RFC 3987 section 3.1 (xiri iri to-uri: UTF-8 then %HH), or "
            "check it under the rfc3987 profile if IRIs are acceptable.",
        },
    [CODE_COLON_IN_FIRST_SEGMENT] =
        {
            "colon-in-first-segment",
            ERR,
            "RFC 3986 4.2",
            "':' in the first segment of a relative path",
            "A relative reference whose path starts with a segment holding "
            "':' (\"a:b/c\") is read as a scheme \"a\" and not as a path, so "
            "the grammar forbids it (ipath-noscheme, RFC 3986 section 4.2).  "
            "Write \"./\" before the path (\"./a:b/c\") or percent-encode the "
            "colon as %3A.",
        },
    [CODE_INVALID_IP_LITERAL] =
        {
            "invalid-ip-literal",
            ERR,
            "RFC 3986 3.2.2",
            "a bracketed host that is neither IPv6 nor IPvFuture",
            "Square brackets in the authority enclose an IP literal: an IPv6 "
            "address (RFC 3986 section 3.2.2, in the forms of RFC 4291) or "
            "\"v\" HEXDIG \".\" ... (IPvFuture).  This one is neither, or "
            "something other than \":port\" follows the ']'.  Correct the "
            "address; a zone identifier needs RFC 6874's %25 form, which "
            "RFC 3986 itself does not allow.",
        },
    [CODE_INVALID_IPV4] =
        {
            "invalid-ipv4",
            ERR,
            "WHATWG URL 3.5",
            "a host browsers read as an IPv4 address that is not one",
            "Browsers (the WHATWG URL Standard, section 3.5, host parsing) "
            "read the host of an http, https, ftp, ws, wss or file URL as an "
            "IPv4 address when its last label (a final empty label after a "
            "'.' aside) is a number: decimal, octal with a leading 0, or "
            "hexadecimal with 0x.  Then every label must be such a number, "
            "there must be four labels at most, each but the last at most "
            "255, and the last must fit in the bytes left (4294967295 alone, "
            "16777215 after one label, and so on); otherwise the URL fails "
            "and the link leads nowhere.  So do 1.2.3.256, 1.2.3.4.5, "
            "0x100000000, 09 (9 is no octal digit) and example.123.  RFC 3986 "
            "reads such hosts as registered names, so only the html profile "
            "reports them.  Correct the address, or the name.",
        },
    [CODE_INVALID_PORT] =
        {
            "invalid-port",
            ERR,
            "RFC 3986 3.2.3",
            "a port that is not decimal digits (html: or over 65535)",
            "The port after the host's ':' is *DIGIT (RFC 3986 section "
            "3.2.3).  Any other character there makes the authority invalid; "
            "often a ':' in a user name or an IPv6 address without brackets "
            "is the cause.  Fix the port, put the user name before an '@', "
            "or bracket the IPv6 address.  Browsers (WHATWG URL section 4.4, "
            "port state) also reject a port over 65535, the largest TCP or "
            "UDP port, so the html profile reports one as this error too.",
        },
    [CODE_PRIVATE_USE] =
        {
            "private-use",
            ERR,
            "RFC 3987 2.2",
            "a private-use character outside the query",
            "Private-use code points (U+E000-F8FF, planes 15 and 16) have no "
            "meaning outside a private agreement, so RFC 3987 section 2.2 "
            "allows them (iprivate) only in the query.  Elsewhere the "
            "reference is not an IRI (a LEIRI accepts them, with this as a "
            "warning).  Percent-encode the character, or avoid it.",
        },
    [CODE_CONTROL_CHAR] =
        {
            "control-char",
            ERR,
            "RFC 3987 2.2",
            "a control character",
            "C0 and C1 control characters (U+0000-001F, U+007F-009F) are "
            "excluded from IRIs and URIs (RFC 3987 section 2.2); LEIRIs "
            "accept them (reported as a warning).  They are invisible, "
            "terminate strings in C (U+0000), break lines and logs, and are "
            "stripped by browsers, so two parties rarely see the same "
            "reference.  Remove the character or percent-encode it.",
        },
    [CODE_NONCHARACTER] =
        {
            "noncharacter",
            ERR,
            "RFC 3987 2.2",
            "a Unicode noncharacter",
            "U+FDD0-FDEF and the last two code points of every plane "
            "(U+FFFE, U+FFFF, U+1FFFE, ...) are noncharacters, reserved for "
            "internal use and never meant for interchange; ucschar (RFC 3987 "
            "section 2.2) excludes them.  Some software replaces or drops "
            "them.  Remove the character or percent-encode it.",
        },
    [CODE_LEIRI_CHAR] =
        {
            "leiri-char",
            WARN,
            "W3C LEIRI Note",
            "a character a LEIRI allows but an IRI does not",
            "XML system identifiers, xml:base, XLink and XML Schema anyURI "
            "take Legacy Extended IRIs (W3C Note, 2008): on top of IRIs they "
            "accept space, '<', '>', '\"', '{', '}', '|', '\\', '^', '`' and "
            "code points outside ucschar.  The reference is acceptable "
            "there, but it is not an IRI, and must be percent-encoded before "
            "it reaches anything else (HTTP, RDF, most URI libraries).  "
            "Percent-encode the character.",
        },
    [CODE_HTML_ONLY] =
        {
            "html-only",
            WARN,
            "WHATWG URL",
            "something browsers accept that RFC 3987 does not",
            "The WHATWG URL Standard, which browsers follow for HTML "
            "attributes, tolerates a '%' without two hex digits, '[' and ']' "
            "outside the host, '#' inside the fragment and ':' in the first "
            "segment of a relative path (\"1a:b\", \"h^p:x\": what "
            "precedes it is no scheme, which starts with a letter and holds "
            "letters, digits, '+', '-' and '.' only); RFC 3987 "
            "does not, and other consumers reject or misread such "
            "references.  Write '%' as %25, '[' as %5B, ']' as %5D and '#' "
            "as %23, and \"./\" before such a path.  In "
            "an http, https, ftp, ws, wss or file URL browsers read '\\' "
            "before the query as '/' (so 'a\\b' requests a/b): write '/'; "
            "rewrite does.",
        },
    [CODE_BIDI_FORMAT_CHAR] =
        {
            "bidi-format-char",
            ERR,
            "RFC 3987 4.1",
            "a bidirectional formatting character",
            "IRIs must not contain LRM, RLM, LRE, RLE, LRO, RLO or PDF "
            "(U+200E, U+200F, U+202A-202E; RFC 3987 section 4.1): they "
            "change how the IRI is displayed without being visible, so what "
            "a reader sees and what software uses differ (the same holds for "
            "the isolates U+2066-2069 and ALM U+061C added to Unicode later, "
            "reported as warnings).  Percent-encoded, the character is legal "
            "URI syntax but still reported, as a warning: make sure it is "
            "intended.  Remove it; to display an IRI, put the marks around "
            "it, not inside.",
        },
    [CODE_BIDI_MIXED] =
        {
            "bidi-mixed",
            WARN,
            "RFC 3987 4.2",
            "a component mixing right-to-left and left-to-right letters",
            "RFC 3987 section 4.2: a component (user information, host "
            "label, path segment or a name or value of the query, the "
            "fragment; xiri also splits path segments at '.', as the RFC "
            "suggests for file extensions) should not use both right-to-left "
            "(Arabic, Hebrew, ...) and left-to-right characters, or the "
            "Unicode bidi algorithm reorders it so that the displayed IRI "
            "cannot be read back reliably (section 4.4 gives examples).  "
            "Split the component, keep it in one direction, or "
            "percent-encode the whole component.",
        },
    [CODE_BIDI_ENDS] =
        {
            "bidi-ends",
            WARN,
            "RFC 3987 4.2",
            "a right-to-left component that does not start and end with a "
            "right-to-left character",
            "RFC 3987 section 4.2: a component using right-to-left "
            "characters should start and end with right-to-left characters. "
            "Digits or punctuation at either end attach to the neighbouring "
            "components when displayed; RFC 3987 4.4 example 8 "
            "(\"/GH1/2IJ/\") shows \"1/2\" read as a fraction.  Move the "
            "digits inside the component or percent-encode the whole "
            "component.",
        },
    [CODE_NOT_NFC] =
        {
            "not-nfc",
            WARN,
            "RFC 3987 5.3.2.2",
            "text not in Unicode Normalization Form C",
            "IRIs should be created in NFC (RFC 3987 section 5.3.2.2), and "
            "comparison never normalizes: \"re\\u0301sume\\u0301\" and "
            "\"r\\u00E9sum\\u00E9\" look the same and are different IRIs.  "
            "Text typed on some systems (macOS file names, for one) comes "
            "decomposed.  Write the NFC form, which the message gives "
            "(xiri iri normalize can apply it).",
        },
    [CODE_NFKC_VARIANT] =
        {
            "nfkc-variant",
            WARN,
            "RFC 3987 7.5",
            "a compatibility character that NFKC replaces",
            "Compatibility characters such as full-width Latin letters "
            "(U+FF21 for 'A'), half-width Katakana, ligatures (U+FB01 for "
            "\"fi\") or superscripts are look-alikes of ordinary characters; "
            "RFC 3987 sections 6.1 and 7.5 advise against them and say new "
            "names should be in NFKC.  Users who type the ordinary character "
            "reach a different resource.  Use the NFKC form given in the "
            "message.",
        },
    [CODE_DELIMITER_LOOKALIKE] =
        {
            "delimiter-lookalike",
            WARN,
            "RFC 3987 7.5",
            "a character that looks like a delimiter such as '/' but is none",
            "Some punctuation marks and symbols of no script in particular "
            "look like the ASCII "
            "delimiters a reader splits an IRI at: U+2215 DIVISION SLASH "
            "and U+2044 FRACTION SLASH like '/', U+A789 MODIFIER LETTER "
            "COLON and U+2236 RATIO like ':', others like '?', '#', '@', "
            "'.', '&', '=' or '%' (the confusables data of UTS #39, as ICU "
            "has it).  To software they are ordinary characters, so a path "
            "written with U+2215 between its names is one segment that a "
            "person reads as several, \"..\" among them, and a link can show "
            "a path or a query it does not have (RFC 3987 sections 7.5 and "
            "8); in a host, \"bank.example\" followed by U+2215 and "
            "\"login.evil.example\" is a name under evil.example (where "
            "confusable-host reports the label too).  Only the delimiters "
            "that split the part are looked for: / : ? # @ . in a host, "
            "/ : ? # @ in the userinfo, / ? # in a path, # & = in a query, "
            "none in a fragment (a ratio sign in \"16:9\" is text).  NFKC "
            "does not change them (full-width forms are nfkc-variant's).  "
            "A script's "
            "own punctuation (the Armenian full stop, which looks like "
            "':') is text of that script, and an IRI without authority "
            "(mailto:, data:) holds text rather than a hierarchy: neither "
            "is reported.  Write the "
            "delimiter if one is meant; otherwise percent-encode the "
            "character, which shows what it is.",
        },
    [CODE_UNASSIGNED] =
        {
            "unassigned",
            WARN,
            "RFC 3987 6.1",
            "a code point not assigned in Unicode",
            "The character is not assigned in the Unicode version xiri's "
            "Unicode library knows, so its normalization, direction and "
            "script are unknown: the NFC, bidi and confusable checks cannot "
            "judge it, IDNA rejects it in host names, and a later Unicode "
            "version may give it properties that change how the IRI "
            "compares or displays (RFC 3987 6.1).  Avoid it, or "
            "percent-encode it.",
        },
    [CODE_PCT_NOT_UTF8] =
        {
            "pct-not-utf8",
            WARN,
            "RFC 3987 3.2",
            "percent-encoded octets that are not UTF-8",
            "IRIs carry characters as UTF-8 octets (RFC 3987 sections 3.1 "
            "and 6.4); these escapes are not valid UTF-8, so they cannot be "
            "shown as characters (section 3.2 keeps them escaped) and "
            "UTF-8-based servers will not find the resource.  They usually "
            "come from a legacy encoding: when one decodes them the message "
            "names it (Shift_JIS, EUC-JP, EUC-KR, GBK, Big5, windows-1252) "
            "with the text and its UTF-8 escapes.  Re-encode the original "
            "text as UTF-8 if the server expects it.",
        },
    [CODE_PCT_OVERLONG] =
        {
            "pct-overlong",
            ERR,
            "RFC 3987 8",
            "an overlong UTF-8 form in percent-encoding",
            "An overlong form encodes a character in more octets than UTF-8 "
            "allows, such as %C0%AF for '/'.  Strict decoders reject it, "
            "lenient ones turn it into the short character, and RFC 3987 "
            "section 8 warns that \"%C0%AF..\" can then pass a security check "
            "and become \"/..\".  Such a reference is almost always an "
            "attack or a broken encoder: reject it, or write the character "
            "itself (escaped as its shortest UTF-8 form if needed).",
        },
    [CODE_IDNA_ERROR] =
        {
            "idna-error",
            ERR,
            "UTS #46 4",
            "a host name that IDNA (UTS #46) rejects",
            "A host with non-ASCII characters must survive IDNA ToASCII "
            "(UTS #46 nontransitional processing with the STD3 rules, "
            "CheckHyphens, CheckBidi and CheckJoiners) to be looked up in "
            "DNS: RFC 3987 sections 3.1 and 5.3.3.  This one fails for the "
            "reasons given (a disallowed character, a misplaced hyphen or "
            "joiner, a label too long, ...), so it cannot be resolved; it is "
            "an error for http, https, ftp, ws and wss and a warning for "
            "other schemes, whose hosts need not be DNS names.  Under the "
            "html profile it is an error where browsers reject the URL "
            "(file URLs too), and a warning where only the STD3 rules, "
            "CheckHyphens or the label lengths find fault, which WHATWG "
            "URL's domain to ASCII leaves out: browsers accept such a host, "
            "DNS does not.  Correct the host name.",
        },
    [CODE_FAKE_A_LABEL] =
        {
            "fake-a-label",
            WARN,
            "RFC 5890 2.3.1",
            "a host label that starts with xn-- but is no A-label",
            "A label that starts with \"xn--\" claims to be an A-label, the "
            "ASCII form of an internationalized label: Punycode of a label "
            "IDNA allows (RFC 5890 section 2.3.2.1).  This one is not valid "
            "Punycode, or decodes to a label IDNA refuses (a disallowed "
            "character, a joiner or a bidi mix out of place), which makes it "
            "a \"fake A-label\" (section 2.3.1): no registry gives such a "
            "name out, and IDNA2008 lookups refuse it.  Browsers differ: the "
            "URL Standard's tests keep such a label as written, older "
            "implementations reject the URL.  Check the host name; it is "
            "likely a typing or encoding error.",
        },
    [CODE_IDNA_BIDI] =
        {
            "idna-bidi",
            ERR,
            "RFC 5893 2",
            "a host name that breaks the IDNA bidi rule",
            "When any label of a host name holds right-to-left characters, "
            "every label must satisfy the Bidi Rule of RFC 5893 section 2 "
            "(UTS #46 CheckBidi): an RTL label starts with an RTL letter and "
            "holds no LTR letters, an LTR label holds no RTL characters, "
            "digits may not begin a label, and so on.  RFC 3987 4.4 example "
            "10 (\"ab.CDEFGH.123\") is one.  IDNA rejects such names, so they "
            "do not resolve.  Change the labels, for example by not putting "
            "an all-digit or mixed-direction label next to an RTL one.",
        },
    [CODE_CONFUSABLE_HOST] =
        {
            "confusable-host",
            WARN,
            "UTS #39 4, 5",
            "a host label that can be mistaken for another",
            "UTS #39 (ICU's spoof checker) finds labels that mix scripts "
            "beyond what a language uses together (\"highly restrictive\", "
            "section 5.2, such as Latin with a Cyrillic 'a'), labels that "
            "look exactly like an ASCII label (section 4 skeletons, such as "
            "Cyrillic \"\\u0430\\u0440\\u0435\" for \"ape\") and invisible or "
            "stacked marks (5.4).  These are the usual material of phishing "
            "(RFC 3987 sections 7.5 and 8).  Check that the host is the one "
            "intended; prefer labels in one script.",
        },
    [CODE_HOST_SLASHES] =
        {
            "host-slashes",
            WARN,
            "WHATWG URL 4.4",
            "a host browsers read after other than \"//\", RFC 3986 a path",
            "After the scheme of an http(s), ftp or ws(s) URL, browsers "
            "skip any number of slashes and backslashes and read what "
            "follows as the host: \"https:example.org/\", "
            "\"https:/example.org/\" and \"https:///example.org/\" all "
            "lead to https://example.org/, and so does \"///example.org/\" "
            "against an https address (WHATWG URL, special authority slashes "
            "state: special-scheme-missing-following-solidus).  RFC 3986 "
            "reads a path there, with no host or an empty one: other "
            "software sends the link elsewhere (\"///example.org/\" "
            "against https://a/ is https:///example.org/) or rejects it.  "
            "xiri checks the host as browsers read it, and xiri links "
            "resolves the link so; xiri rewrite leaves it as written unless "
            "--resolve makes it absolute.  Write two slashes before the "
            "host.  (Against a base of the same scheme, "
            "\"http:p\" and \"http:/p\" are relative references to "
            "browsers, as to RFC 3986 5.2.2's non-strict readers, and are "
            "not reported.)",
        },
    [CODE_CONTROL_AROUND_URL] =
        {
            "control-around-url",
            WARN,
            "WHATWG URL 4.4",
            "a C0 control before or after an HTML URL, which browsers remove",
            "Before they read a URL, browsers remove the C0 controls "
            "(U+0000 to U+001F) and spaces at its start and end (WHATWG "
            "URL, basic URL parser, step 1: invalid-URL-unit), so "
            "href=\"&#1;https://example.org/\" leads to "
            "https://example.org/.  HTML allows only spaces (ASCII "
            "white space) around a URL (HTML 2.4.5, a valid URL "
            "potentially surrounded by spaces): another control makes the "
            "document invalid, and software that reads the value as RFC "
            "3986 does (feeds, crawlers, link checkers) gets no URL or "
            "another one.  xiri checks and resolves the URL without it, "
            "and xiri rewrite leaves it where it is; the message gives the "
            "first such character on each side of the value.  Remove it "
            "(it is often a stray character reference such as &#1;).",
        },
    [CODE_UPPER_SCHEME] =
        {
            "upper-scheme",
            NOTE,
            "RFC 3987 5.3.2.1",
            "upper-case letters in the scheme",
            "Schemes are case-insensitive and their normal form is lower "
            "case (RFC 3986 3.1, RFC 3987 5.3.2.1).  \"HTTP:\" works, but it "
            "compares unequal to \"http:\" in simple string comparison, as "
            "XML namespaces and many caches use.  Write the scheme in lower "
            "case.",
        },
    [CODE_UPPER_HOST] =
        {
            "upper-host",
            NOTE,
            "RFC 3987 5.3.2.1",
            "upper-case ASCII letters in the host",
            "Host names are case-insensitive and normalize to lower case "
            "(RFC 3986 6.2.2.1, RFC 3987 5.3.2.1; RFC 5952 for IPv6 "
            "addresses).  A mixed-case host works but defeats simple string "
            "comparison.  Write the host in lower case.",
        },
    [CODE_LOWER_HEX] =
        {
            "lower-hex",
            NOTE,
            "RFC 3987 5.3.2.1",
            "lower-case hexadecimal digits in percent-encodings",
            "%3a and %3A are equivalent, and upper case is the normal form "
            "(RFC 3986 2.1, RFC 3987 5.3.2.1).  Mixed spellings defeat "
            "simple string comparison.  Write the hexadecimal digits in "
            "upper case.",
        },
    [CODE_NEEDLESS_ESCAPE] =
        {
            "needless-escape",
            NOTE,
            "RFC 3987 5.3.2.3",
            "a percent-encoded unreserved character",
            "Letters, digits, '-', '.', '_' and '~' never need "
            "percent-encoding and URI producers should not encode them (RFC "
            "3986 section 2.3); \"%7Euser\" and \"~user\" are equivalent after "
            "normalization (RFC 3987 5.3.2.3) but not in simple string "
            "comparison.  Write the character itself.",
        },
    [CODE_DEFAULT_PORT] =
        {
            "default-port",
            NOTE,
            "RFC 3987 5.3.3",
            "an explicit port equal to the scheme's default",
            "A port equal to the scheme's default (80 for http and ws, 443 "
            "for https and wss, 21 for ftp) changes nothing, and "
            "scheme-based normalization removes it together with its ':' "
            "(RFC 3986 6.2.3, RFC 3987 5.3.3).  Leave the port out.",
        },
    [CODE_EMPTY_PORT] =
        {
            "empty-port",
            NOTE,
            "RFC 3987 5.3.3",
            "a ':' with an empty port",
            "An authority ending in ':' has an empty port, which means the "
            "scheme's default; RFC 3986 section 3.2.3 asks producers to omit "
            "the ':' then, and scheme-based normalization removes it (RFC "
            "3987 5.3.3).  Remove the ':'.",
        },
    [CODE_DOT_SEGMENT] =
        {
            "dot-segment",
            NOTE,
            "RFC 3987 5.3.2.4",
            "a '.' or '..' segment in the path of an absolute IRI",
            "The segments \".\" and \"..\" are meant for relative references "
            "and are removed by resolution (RFC 3986 5.2.4); in an absolute "
            "IRI some software removes them and some does not, so the same "
            "IRI may reach different resources (RFC 3987 5.3.2.4).  Write "
            "the path without them (xiri iri normalize does it).",
        },
    [CODE_ESCAPED_DOT_SEGMENT] =
        {
            "escaped-dot-segment",
            WARN,
            "RFC 3986 5.2.4",
            "a path segment \".\" or \"..\" with its dots percent-encoded",
            "A segment such as \"%2e%2e\" or \".%2E\" is \"..\" once "
            "decoded.  RFC 3986 resolution removes only literal dot segments "
            "(section 5.2.4) and keeps it as a name, but browsers (WHATWG "
            "URL, path state) and RFC 3986 normalizers that decode "
            "unreserved characters first (6.2.2.2) read it as a dot "
            "segment, and servers differ too: the same link leads to "
            "different resources depending on who reads it, and such "
            "segments are how path traversals slip past checks of a literal "
            "\"..\".  Write \".\" or \"..\" if that is meant (or resolve "
            "it away); a segment of that name cannot be reached reliably.",
        },
    [CODE_NO_BASE] =
        {
            "no-base",
            WARN,
            "RFC 3986 5.1",
            "a relative reference with no base IRI to resolve it against",
            "A relative reference (one without a scheme, such as "
            "\"../img/a.png\" or \"?page=2\") only means something once it "
            "is resolved against a base IRI (RFC 3986 section 5.1): the base "
            "the document sets (xml:base, HTML <base href>), else the "
            "document's own URI.  Here there is none, as when the document "
            "is read from standard input, so the link's target is unknown.  "
            "Give the document's URI with --base, add a base to the "
            "document, or write an absolute IRI.  Same-document references "
            "(empty, or only a fragment) need no base and are not reported.",
        },
    [CODE_OPAQUE_BASE] =
        {
            "opaque-base",
            ERR,
            "WHATWG URL 4.4",
            "a relative reference against a base with an opaque path",
            "The base in force has an opaque path: a scheme that is not "
            "special and no '/' after its ':', as in <base href=\"mailto:"
            "x\"> or a base \"urn:a:b\".  Browsers cannot resolve a "
            "relative reference against it (WHATWG URL, no scheme state: "
            "only a fragment can be), so the link does not work, where RFC "
            "3986 section 5.2 would give \"mailto:c\" for \"c\": xiri "
            "links gives no resolved IRI for it, and xiri rewrite --resolve "
            "leaves it.  Fix the base (a <base href> meant for the "
            "document's own address), or write the link absolute.",
        },
    [CODE_HOST_MISSING] =
        {
            "host-missing",
            ERR,
            "WHATWG URL 4.4",
            "a URL without the host browsers need",
            "A URL of a special scheme other than file must have a host: "
            "browsers reject \"http://\", \"http://user@/\" or \"https:\" "
            "(WHATWG URL, host state: host-missing), and so do \"//\" and "
            "\"\\\\\" against an http address; in any scheme, userinfo or "
            "a port needs a host (\"sc://@/\", \"//:80/\" fail whatever "
            "the base).  The link does not work, "
            "and RFC 9110 (4.2.1) forbids an http URI with an empty host.  "
            "Such a value is often a placeholder a template left empty.  "
            "Write the host, or a relative reference, or remove the link.",
        },
    [CODE_RELATIVE_IDENTIFIER] =
        {
            "relative-identifier",
            WARN,
            "RFC 4287 4.2.6",
            "an identifier written as a relative reference",
            "Some IRIs name something rather than locate it and are compared "
            "as strings, never resolved: an Atom id (RFC 4287 section 4.2.6 "
            "requires an IRI, which is absolute), an RSS guid, a namespace "
            "name (Namespaces in XML 1.0 section 2.2 deprecates relative "
            "ones; XML Schema's targetNamespace and the first of each pair of "
            "xsi:schemaLocation are namespace names).  A relative reference "
            "there means different things to different software, and the "
            "same one in two documents is the same identifier whatever "
            "their addresses.  Write the absolute IRI (for an Atom id, a tag: "
            "URI, RFC 4151, is a common choice).",
        },
    [CODE_INVALID_HASH_NAME] =
        {
            "invalid-hash-name",
            ERR,
            "WHATWG HTML 2.3 (References)",
            "an HTML usemap that names no map as browsers read it",
            "An HTML usemap is a hash-name reference, not a URL: '#' and "
            "the name of a <map> of the same document.  Browsers take what "
            "follows the first '#' and compare it, as written, with the name "
            "(or id) of each <map> (HTML Living Standard, \"rules for "
            "parsing a hash-name reference\"): without a '#', or with "
            "nothing after it, no map is found, and a map's name is never "
            "empty and never holds white space (the map element), so a name "
            "with white space names none.  Nothing is decoded: \"#caf%C3%A9\" "
            "does not find <map name=\"café\">, so xiri rewrite leaves "
            "usemap as written.  Text before the '#' (\"page.html#m\") is "
            "ignored by browsers but not allowed: a warning.  Write '#' and "
            "the map's name.",
        },
    [CODE_QUERY_ENCODING] =
        {
            "query-encoding",
            WARN,
            "WHATWG URL 4.4",
            "a non-ASCII query browsers send in the document's legacy "
            "encoding",
            "In an HTML document that is not UTF-8 (or XHTML or SVG served "
            "as XML), browsers encode the "
            "query of an http, https, ftp or file URL in the document's "
            "encoding (WHATWG URL Standard, the URL parser's query state; "
            "ws and wss queries, paths and fragments always use UTF-8), and "
            "a character that encoding cannot express is sent as an HTML "
            "character reference, percent-encoded: %26%23NNN%3B.  RFC 3987 "
            "section 3.1 maps every IRI character to UTF-8, so a browser and "
            "IRI software send different bytes for the same link.  The "
            "message gives both forms.  Write the query percent-encoded in "
            "the form the server expects, or convert the document to UTF-8, "
            "after which the two agree.",
        },
    [CODE_REPLACEMENT_CHAR] =
        {
            "replacement-char",
            WARN,
            "WHATWG Encoding 4.1",
            "U+FFFD, usually bytes that are invalid in the document's "
            "encoding",
            "The value holds U+FFFD REPLACEMENT CHARACTER.  Decoders put it "
            "in place of bytes that are not valid in the document's encoding "
            "(the \"replacement\" error mode of WHATWG Encoding section 4.1), "
            "so the encoding declaration is probably wrong or the file mixes "
            "encodings, and what the author wrote is lost (the invalid bytes "
            "are reported with their position).  Less often the document "
            "holds the character itself, as U+FFFD or &#xFFFD;, which is "
            "never meaningful in a link.  Fix the declaration or transcode "
            "the file.",
        },
    [CODE_C1_CONTROL] =
        {
            "c1-control",
            WARN,
            "WHATWG Encoding 4.2",
            "a C1 control in ISO-8859-1 text, probably meant as "
            "windows-1252",
            "In ISO-8859-1 the bytes 0x80-0x9F are the C1 control characters "
            "U+0080-U+009F, which nobody means in a link.  Documents labelled "
            "ISO-8859-1 are almost always windows-1252, where those bytes "
            "are letters and punctuation (0x80 the euro sign, 0x93 and 0x94 "
            "curly quotes, 0x96 an en dash); browsers read every ISO-8859-1 "
            "label as windows-1252 (WHATWG Encoding 4.2), XML parsers follow "
            "the declaration.  The message names the windows-1252 "
            "character.  Declare the encoding as windows-1252, or transcode "
            "the document to UTF-8.",
        },
    [CODE_MOJIBAKE] =
        {
            "mojibake",
            WARN,
            "RFC 3629 3",
            "UTF-8 that was read as windows-1252 (U+00C3 U+00A9 for U+00E9)",
            "These characters are the bytes of UTF-8 text decoded as "
            "windows-1252 or ISO-8859-1 by some program on the link's way "
            "into the document: U+00C3 U+00A9 (A-tilde, copyright sign) "
            "are the windows-1252 reading of C3 A9, the UTF-8 of U+00E9 "
            "(e-acute).  The same happens escaped: %C3%83%C2%A9 is the UTF-8 "
            "of U+00C3 U+00A9.  "
            "The link now names another resource than the one meant.  xiri "
            "reports a run of characters only when all of them are "
            "windows-1252 characters and their bytes form valid UTF-8 (RFC "
            "3629 section 3), which ordinary text almost never does; the "
            "message gives the repaired value, and 'xiri rewrite --repair' "
            "writes it.  Fix the program that decoded the text.",
        },
    [CODE_DOUBLE_PCT] =
        {
            "double-pct",
            WARN,
            "RFC 3986 2.4",
            "a percent-encoding that was percent-encoded again (%2520)",
            "'%25' is an escaped '%', so %2520 decodes to %20 and only a "
            "second decoding gives the space: the value was escaped twice "
            "(RFC 3986 section 2.4: a string must not be percent-encoded "
            "more than once).  Servers decode once and look for a resource "
            "whose name holds \"%20\".  In a query parameter that holds a "
            "whole escaped URL (an escaped ':', '/', '?', '=' or '&' in the "
            "same parameter), escaping twice is right and is not reported.  "
            "The message gives the repaired value, and 'xiri rewrite "
            "--repair' writes it.",
        },
    [CODE_INVALID_BYTE] =
        {
            "invalid-byte",
            WARN,
            "WHATWG Encoding 4.1",
            "bytes that are not valid in the document's encoding",
            "The document holds bytes that its encoding (declared, given "
            "with --encoding, or guessed) does not define, such as a stray "
            "0xC3 in UTF-8 or 0x81 0x20 in Shift_JIS.  They are read as "
            "U+FFFD, as browsers do (the \"replacement\" error mode of WHATWG "
            "Encoding section 4.1), so what the author wrote there is lost, "
            "and links that hold them are reported again (replacement-char).  "
            "The message gives the bytes and their offset in the file; after "
            "many such bytes the rest are not reported one by one.  In HTML "
            "a NUL byte is reported too: it is never allowed and is read as "
            "U+FFFD (WHATWG HTML 13.2.5, unexpected-null-character).  Most "
            "often the document is in another encoding than it says: fix its "
            "declaration, give the right one with --encoding, or transcode "
            "the file.",
        },
    [CODE_ENCODING_GUESS] =
        {
            "encoding-guess",
            NOTE,
            "WHATWG HTML 13.2.3",
            "the document does not say its encoding, which was guessed",
            "Neither a byte order mark, an XML declaration, a <meta charset> "
            "nor --encoding says how the document's bytes are to be read, so "
            "the encoding was guessed: UTF-8 when the bytes are valid UTF-8, "
            "else windows-1252, as browsers do (the encoding sniffing "
            "algorithm of WHATWG HTML section 13.2.3; XML without a "
            "declaration is UTF-8 by XML 1.0 section 4.3.3 and is not "
            "reported).  Another program may guess differently and read "
            "other characters, and so other links.  The message names the "
            "encoding used.  Declare the encoding in the document (<meta "
            "charset=\"utf-8\"> near the start of <head>) or give it with "
            "--encoding.",
        },
    [CODE_ENCODING_CONFLICT] =
        {
            "encoding-conflict",
            WARN,
            "W3C XML 1.0 F.1",
            "the byte order mark and the declared encoding disagree",
            "The document starts with a byte order mark for one encoding "
            "(UTF-8, UTF-16LE or UTF-16BE) but declares another one in its "
            "XML declaration or <meta charset>.  The mark wins, as in "
            "browsers (WHATWG Encoding, the decode algorithm) and as XML 1.0 "
            "appendix F.1 detects it, and the document was read in the "
            "mark's encoding; a program that believes the declaration reads "
            "other characters.  XML 1.0 section 4.3.3 makes such a document "
            "an error.  Fix the declaration (or remove the mark), or give "
            "the right encoding with --encoding.",
        },
    [CODE_ENCODING_LATE] =
        {
            "encoding-late",
            WARN,
            "WHATWG HTML 13.2.3.2",
            "a <meta> declares the encoding past the first 1024 bytes",
            "Browsers look for <meta charset> (or http-equiv=Content-Type) "
            "in the first 1024 bytes of a page before they read it (the "
            "prescan, WHATWG HTML section 13.2.3.2).  When it comes later "
            "and the encoding they guessed differs, they read the page again "
            "in the declared one (\"change the encoding\", 13.2.3.5).  xiri "
            "reads a document once, so it read this one in its guess, and "
            "the links with non-ASCII characters may be wrong.  Move the "
            "<meta> to the start of <head>, or give --encoding with the "
            "declared encoding.",
        },
    [CODE_ENCODING_REPLACEMENT] =
        {
            "encoding-replacement",
            ERR,
            "WHATWG Encoding 4.2",
            "a <meta> names an encoding browsers replace by one U+FFFD",
            "The page declares its encoding with a label of WHATWG's "
            "\"replacement\" encoding (iso-2022-kr, csiso2022kr, iso-2022-cn, "
            "iso-2022-cn-ext, hz-gb-2312, replacement): encodings that were "
            "used for cross-site scripting, which browsers no longer decode "
            "(WHATWG Encoding section 4.2, and the replacement decoder of "
            "section 14.1).  They read the whole page as one U+FFFD "
            "REPLACEMENT CHARACTER: none of its text or links.  xiri read "
            "it in the encoding it guessed, as if the <meta> were not there, "
            "so as to check its links.  Transcode the page to UTF-8 and "
            "declare that, or give the encoding it is really in.",
        },
    [CODE_EOF_IN_TAG] =
        {
            "eof-in-tag",
            WARN,
            "WHATWG HTML 13.2.5.32",
            "an HTML document ends inside a tag",
            "The document ends before the '>' of its last start or end tag "
            "(say a file cut short: <a href=\"page.html).  Browsers drop such "
            "a tag with all its attributes (the eof-in-tag parse error of "
            "WHATWG HTML section 13.2.5), so its links never exist for them, "
            "and xiri does not read them either; libxml2 alone would have "
            "kept the tag.  Check that the file is complete, and end the "
            "tag.",
        },
    [CODE_XML_ERROR] =
        {
            "xml-error",
            WARN,
            "W3C XML 1.0 1.2",
            "an error the XML parser recovered from",
            "libxml2 reported an error in the document that does not stop "
            "parsing, such as a namespace error (a prefix that is not "
            "declared, Namespaces in XML 1.0) or a recoverable mistake in "
            "the markup; the message is the parser's.  The document was "
            "still read, but other XML software may reject it or read it "
            "differently, and the links near the error may not be what the "
            "author meant.  An error that stops parsing (not well-formed "
            "XML, XML 1.0 section 1.2 \"fatal error\") is not a finding but "
            "a failure of the file, with exit status 2.  Fix the document at "
            "the line and column given.",
        },
    [CODE_EXTERNAL_ENTITY] =
        {
            "external-entity",
            NOTE,
            "W3C XML 1.0 4.2.2",
            "the document refers to an external entity or DTD, which is "
            "never read",
            "The document's DOCTYPE names an external DTD, or declares or "
            "uses an external entity (XML 1.0 section 4.2.2: <!ENTITY name "
            "SYSTEM \"...\">), a file or URL whose text would become part of "
            "the document.  xiri never reads them: reading a local file or a "
            "URL named by an untrusted document leaks data or reaches the "
            "network (the XML external entity attack, XXE).  So values that "
            "refer to entities such a file would declare are not checked "
            "(unknown-entity).  Nothing needs to be done when the document "
            "does not rely on them; otherwise declare the entities in the "
            "internal subset, or write the characters themselves.",
        },
    [CODE_UNKNOWN_ENTITY] =
        {
            "unknown-entity",
            WARN,
            "W3C XML 1.0 4.1",
            "a value refers to an entity that is external or not declared",
            "The value holds an entity reference (&name;) whose replacement "
            "text is unknown: the entity is external, or is declared only in "
            "an external DTD, which xiri never reads (external-entity), or is "
            "not declared at all (a well-formedness error in a document "
            "without a DTD, XML 1.0 section 4.1 \"Entity Declared\"; in XHTML "
            "read as XML, the HTML names such as &eacute; are of that kind).  "
            "The value was not checked, as what it means is unknown.  Write "
            "the character itself or a character reference (&#xE9;), or "
            "declare the entity in the internal subset.",
        },
    [CODE_VALUE_TOO_LONG] =
        {
            "value-too-long",
            WARN,
            "xiri(1) LIMITS",
            "a value longer than --max-value (or content longer than "
            "--max-markup) was not checked",
            "The value, as the document means it (UTF-8, after its "
            "references are expanded), is longer than the --max-value limit "
            "(default 1 MiB), or an element whose content is read as an IRI "
            "is longer than --max-markup; no real link is that long, and the "
            "limit keeps the time and memory a hostile document can take "
            "bounded.  The value was not checked, and rewrite leaves it as it "
            "is.  If the value is real (a long data: URI), raise the limit "
            "with --max-value (or --max-markup); else the document was "
            "probably generated wrong.",
        },
    [CODE_BASE_NOT_ABSOLUTE] =
        {
            "base-not-absolute",
            WARN,
            "RFC 3986 5.1",
            "a relative xml:base or <base href> with no base to resolve it "
            "against",
            "An xml:base attribute or an HTML <base href> sets the base IRI "
            "of the links it governs; a relative one is resolved against the "
            "base in force (RFC 3986 section 5.1, XML Base section 4.2), but "
            "here there is none: the document was read from the standard "
            "input, or --base was not absolute.  The links it governs have no "
            "base, and their targets are unknown (no-base).  Give the "
            "document's address with --base, or make the base in the "
            "document absolute.",
        },
    [CODE_BASE_INVALID] =
        {
            "base-invalid",
            WARN,
            "RFC 3986 5.2",
            "an xml:base or <base href> that cannot be resolved",
            "The value of an xml:base attribute or an HTML <base href> could "
            "not be resolved against the base in force (RFC 3986 section "
            "5.2): it is not a valid IRI reference (the message says why).  "
            "The links it governs have no base, so their targets are "
            "unknown.  Fix the value; 'xiri iri check' tells what is wrong "
            "with it.",
        },
    [CODE_BASE_AFTER_LINKS] =
        {
            "base-after-links",
            WARN,
            "WHATWG HTML 4.2.3",
            "<base href> comes after links it would have governed",
            "The HTML standard (section 4.2.3, the base element) says the "
            "first <base href> sets the document's base URL for every link "
            "of the document, before it as well as after it, and browsers "
            "resolve them that way; xiri reads the document once, in order, "
            "so the links before <base> were resolved against the "
            "document's own address, and what they point to differs from "
            "what browsers load.  The message says how many.  Move <base> to "
            "the start of <head>, before any element with a link.",
        },
    [CODE_UNPAIRED_NAMESPACE] =
        {
            "unpaired-namespace",
            WARN,
            "W3C XML Schema 1.0 Part 1 4.3.2",
            "xsi:schemaLocation ends with a namespace name without a location",
            "xsi:schemaLocation holds pairs (XML Schema 1.0 Part 1, sections "
            "2.6.3 and 4.3.2; the same in 1.1): a namespace name, then the "
            "location of a schema document for that namespace, then the next "
            "pair.  This value has an odd number of items, so its last, a "
            "namespace name, has no location: a schema processor finds no "
            "schema for that namespace from it (the hint is ignored), and if "
            "an item was left out in the middle, every pair after it is read "
            "the wrong way round.  The attribute's type is a plain list of "
            "anyURI, so validation itself does not complain.  Add the "
            "missing location, or remove the namespace name.",
        },
    [CODE_SRCSET_DROPPED] =
        {
            "srcset-dropped",
            ERR,
            "WHATWG HTML (parse a srcset attribute)",
            "browsers drop this srcset candidate: its descriptors are not "
            "valid",
            "Browsers read a srcset (and a link's imagesrcset) as image "
            "candidates separated by commas: a URL, then at most one "
            "descriptor, a width such as 300w or a pixel density such as "
            "1.5x (HTML Living Standard, \"parse a srcset attribute\").  A "
            "candidate whose descriptors are not valid is dropped without a "
            "word: a word that is no descriptor, two descriptors, a width or "
            "height of zero, a negative density, a height without a width.  "
            "The usual cause is a space in the URL: \"my photo.jpg 2x\" is "
            "the URL \"my\" with the descriptors \"photo.jpg\" and \"2x\".  "
            "The image is then never chosen from this candidate.  Write a "
            "space inside a URL as %20, and give each candidate one "
            "descriptor.",
        },
    [CODE_SRCSET_INVALID] =
        {
            "srcset-invalid",
            WARN,
            "WHATWG HTML (srcset attribute requirements)",
            "a srcset candidate breaks the attribute's rules; browsers "
            "still read it",
            "HTML requires of a srcset (\"Attributes common to source, img, "
            "and link elements\"): no two candidates with the same width, "
            "or the same density (a candidate without descriptor is 1x); a "
            "width on every candidate when one has a width (and then a sizes "
            "attribute on the element); a density greater than zero; no "
            "height descriptor (kept for future use).  Browsers keep the "
            "first of two candidates with the same density or width and "
            "never use the other, and choose oddly between widths and "
            "densities.  Give each candidate its own descriptor, all of one "
            "kind.",
        },
    [CODE_PI_SYNTAX] =
        {
            "pi-syntax",
            ERR,
            "W3C Associating Style Sheets with XML documents 1.0, section 2",
            "the pseudo-attributes of this processing instruction do not "
            "parse: Chromium ignores it",
            "An xml-stylesheet processing instruction (and ISO/IEC "
            "19757-11's xml-model, which reuses its syntax) holds "
            "pseudo-attributes written like the attributes of a start tag: "
            "a name, '=', a value in single or double quotes, white space "
            "between them; in a value only character references and &amp; "
            "&lt; &gt; &quot; &apos; may stand for characters, and '<' may "
            "not stand at all.  XML parsers do not check this (the data of a "
            "processing instruction is free text to them).  Chromium reads "
            "the data as a start tag's attributes and ignores a processing "
            "instruction that breaks these rules, or gives a name twice "
            "(XML 1.0 3.1): the style sheet is not applied, without a word; "
            "Firefox reads the pseudo-attributes it can.  xiri reports the "
            "pseudo-attributes read before the place where the data stops "
            "matching.  Quote every value, separate the pseudo-attributes "
            "with spaces, give each once, and write '&' in a value as "
            "&amp;.",
        },
    [CODE_KML_TEMPLATE] =
        {
            "kml-template",
            NOTE,
            "OGC KML 2.2 (kml:PhotoOverlay, kml:ImagePyramid)",
            "a KML tile URL template, left alone",
            "A KML PhotoOverlay of a very large image gives the URL of its "
            "tiles as a template: the href of its Icon holds $[level], $[x] "
            "and $[y], which the viewer replaces with the level of detail "
            "and the column and row of each tile it loads.  The template "
            "itself is no IRI ('[' and ']' may stand in no path or query), "
            "which "
            "is why the OGC schema types href as a string.  xiri reports "
            "such a value with this note instead of checking it as an IRI, "
            "and xiri rewrite leaves it as written.  Nothing needs doing; "
            "write the rest of the URL as a URI if the viewers it is meant "
            "for need one.",
        },
    [CODE_CSS_ESCAPE] =
        {
            "css-escape",
            NOTE,
            "W3C CSS Syntax Module Level 3, 4.3.7",
            "a CSS url() (or URL string) written with an escape, left alone",
            "In CSS a backslash starts an escape: \\( stands for '(', \\20 "
            "(hex digits, then an optional space) for the character with "
            "that number (CSS Syntax Level 3, 4.3.7), in a url() as "
            "anywhere else.  The URL browsers load is the one the escapes "
            "stand for, not the characters written.  xiri reads the url()s "
            "(and the strings of @import and image-set()) "
            "of style elements and attributes and of SVG's presentation "
            "attributes "
            "(fill=\"url(#g)\"), but does not decode CSS escapes: such a "
            "URL is reported with this note, neither checked nor rewritten. "
            " Nothing needs doing; to have it checked, write the character "
            "itself, or percent-encode it (%28 for '(').",
        },
    [CODE_CSS_BAD_URL] =
        {
            "css-bad-url",
            ERR,
            "W3C CSS Syntax Module Level 3, 4.3.6",
            "browsers drop this CSS declaration: its url() is a bad URL",
            "An unquoted url() ends at its ')'; white space may stand "
            "only after the URL, and a quote mark, a '(', a control "
            "character or a backslash before a line end may not stand in it "
            "at all (CSS Syntax Level 3, 4.3.6).  Otherwise the tokenizer "
            "makes a bad URL of it, the declaration holding it is invalid, "
            "and browsers drop it without a word: the background or the "
            "fill is never loaded.  A quoted URL, url(\"...\"), the string "
            "of an @import in a style sheet and the strings of an "
            "image-set() are cut the same way by a line end inside their "
            "quotes (4.3.5), and the @import or declaration is dropped.  The "
            "usual "
            "cause is a file name with a space: url(my photo.png).  Quote "
            "the URL, url(\"my photo.png\"), or percent-encode the "
            "character (%20 for a space).",
        },
    [CODE_IDENTIFIER_KEPT] =
        {
            "identifier-kept",
            NOTE,
            "RFC 4287 4.2.6.1",
            "xiri rewrite left an identifier as written",
            "Some IRIs name something rather than locate it, and are "
            "compared as strings, character by character: an Atom id (RFC "
            "4287 section 4.2.6.1: feed readers use it to recognize an entry "
            "they have seen), an RSS guid, a namespace name (Namespaces in "
            "XML 1.0 section 2.3), such as the first of each pair of "
            "xsi:schemaLocation, which must match the namespace "
            "declarations, an RDF node (rdf:about, rdf:resource, "
            "rdf:datatype: RDF 1.1 Concepts section 3.2 holds two IRIs the "
            "same node only when they are equal as strings, once resolved).  "
            "Another spelling of the same IRI, even the "
            "equivalent URI of RFC 3987 section 3.1, is another identifier: "
            "every entry of a rewritten feed would look new, and a schema "
            "location would no longer match its namespace.  So xiri rewrite "
            "leaves them exactly as written and says so when it would have "
            "changed one.  Give --identifiers=rewrite to rewrite them "
            "anyway (when every consumer will see the new spelling only), "
            "or --quiet to hide the note.",
        },
};
/* clang-format on */

const struct xiri_code_info *codes_get(enum code_id id)
{
    return &code_table[id];
}

void codes_rebase_bytes(const char *msg, size_t (*map)(const void *, size_t),
                        const void *user, char *out, size_t size)
{
    size_t used = 0;
    bool quoted = false;

    while (*msg && used + 1 < size) {
        char *end;
        unsigned long long o;
        size_t to;

        /* "at byte 12", as every message writes an offset; not "byte
         * 0xFF", a byte's value, nor text quoted from the value (messages
         * quote it in '"', which a quoted string does not hold:
         * check_quote) */
        if (*msg == '"')
            quoted = !quoted;
        if (!quoted && strncmp(msg, "at byte ", 8) == 0 && msg[8] >= '0' &&
            msg[8] <= '9' &&
            (o = strtoull(msg + 8, &end, 10), *end != 'x' && *end != 'X') &&
            (to = map(user, (size_t)o)) != SIZE_MAX) {
            int w = snprintf(out + used, size - used, "at byte %zu", to);

            if (w < 0 || (size_t)w >= size - used)
                break;
            used += (size_t)w;
            msg = end;
            continue;
        }
        out[used++] = *msg++;
    }
    out[used] = '\0';
}

void codes_diag(struct xiri_diag *d, enum code_id id, enum xiri_part part,
                size_t off, size_t len, uint32_t cp, const char *message)
{
    const struct xiri_code_info *info = codes_get(id);

    d->code = info->code;
    d->severity = info->severity;
    d->offset = off;
    d->length = len;
    d->codepoint = cp;
    d->part = part;
    d->section = info->section;
    d->message = message;
}

const struct xiri_code_info *xiri_code_at(size_t i)
{
    return i < ARRAY_LEN(code_table) ? &code_table[i] : NULL;
}

const struct xiri_code_info *xiri_code_lookup(const char *code)
{
    size_t i;

    if (!code)
        return NULL;
    for (i = 0; i < ARRAY_LEN(code_table); i++)
        if (strcmp(code_table[i].code, code) == 0)
            return &code_table[i];
    return NULL;
}
