/* test_htmlref.c - the htmlref suite: htmlref_decode() against the values
 * html5lib 1.1 (Debian's python3-html5lib, an independent implementation
 * of the WHATWG HTML tokenizer) gives for the same text, written in an
 * attribute value (<a href="...">) and in text (<p>...</p>). */
#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "helpers.h"
#include "htmlref.h"
#include "suites.h"

/* Decode s as htmlref's callers do: each '&' by htmlref_decode, any other
 * byte as itself. */
static void decode(const char *s, bool attribute, char *out, size_t size)
{
    size_t n = strlen(s), i = 0, o = 0;

    while (i < n && o + 8 < size) {
        char tmp[8];
        size_t dl, k = s[i] == '&' ? htmlref_decode(s + i, n - i, attribute,
                                                    tmp, &dl)
                                   : 0;
        if (k == 0) {
            out[o++] = s[i++];
        } else {
            memcpy(out + o, tmp, dl);
            o += dl;
            i += k;
        }
    }
    out[o] = '\0';
}

struct vector {
    const char *in, *want;
};

/* Each vector decoded (in an attribute value or in text) against its
 * html5lib value. */
static void check_vectors(const struct vector *v, size_t n, bool attribute)
{
    char got[64];
    size_t i;

    for (i = 0; i < n; i++) {
        decode(v[i].in, attribute, got, sizeof(got));
        TEST_STR_EQ(v[i].in, got, v[i].want);
    }
}

static void test_attribute(void)
{
    static const struct vector v[] = {
        {"&amp;", "&"},
        {"&amp", "&"},
        {"&ampx", "&ampx"},  /* no ';', then an alphanumeric: as written */
        {"&amp=", "&amp="},  /* no ';', then '=': as written */
        {"&amp;x", "&x"},
        {"&notit;", "&notit;"}, /* "not" without ';' before 'i' */
        {"&notin;", "\xE2\x88\x89"},
        {"&sol;", "/"},      /* HTML5 names libxml2 2.9 does not know */
        {"&quest;", "?"},
        {"&#x80;", "\xE2\x82\xAC"}, /* 0x80-0x9F as windows-1252 */
        {"&#128;", "\xE2\x82\xAC"},
        {"&#x81;", "\xC2\x81"},     /* a hole of windows-1252: stays */
        {"&#0;", "\xEF\xBF\xBD"},
        {"&#xD800;", "\xEF\xBF\xBD"},
        {"&#x110000;", "\xEF\xBF\xBD"},
        {"&#9999999999;", "\xEF\xBF\xBD"},
        {"&#x41", "A"},             /* a missing ';' is a parse error */
        {"&#", "&#"},
        {"&#x;", "&#x;"},
        {"&eacute ", "\xC3\xA9 "},
        {"&Eacute;", "\xC3\x89"},
        {"&EACUTE;", "&EACUTE;"},
        {"&NotEqualTilde;", "\xE2\x89\x82\xCC\xB8"}, /* two code points */
        {"&bogus;", "&bogus;"},
        {"&lt", "<"},
        {"&ltx", "&ltx"},
        {"&copy=3", "&copy=3"},
        {"&reg&", "\xC2\xAE&"},
        {"&fjlig;", "fj"},
        {"a&b", "a&b"},
        {"&#65;&#x42;", "AB"},
    };

    check_vectors(v, ARRAY_LEN(v), true);
}

static void test_text(void)
{
    static const struct vector v[] = {
        {"&notit;", "\xC2\xAC" "it;"}, /* in text "not" is taken */
        {"&ampx", "&x"},
        {"&copy=3", "\xC2\xA9=3"},
        {"&eacute", "\xC3\xA9"},
    };

    check_vectors(v, ARRAY_LEN(v), false);
}

int suite_htmlref_register(void)
{
    CU_pSuite s = CU_add_suite("htmlref", NULL, NULL);

    if (!s || !CU_add_test(s, "in attribute values", test_attribute) ||
        !CU_add_test(s, "in text", test_text))
        return -1;
    return 0;
}
