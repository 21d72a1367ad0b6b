/* tagscan.c - locating start tags and their attributes in the text (see
 * tagscan.h).  The syntax is XML 1.0 section 3.1 (STag, Attribute, Eq,
 * AttValue) widened to HTML's unquoted values and valueless attributes. */
#include "common.h"
#include "tagscan.h"

/* Whitespace as libxml2 reads it in tags, for XML and HTML alike
 * (IS_BLANK_CH: XML 1.0 production S); HTML's form feed is not in it, and
 * a tag must be read as the parser read it. */
static bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

size_t tag_find_start(const char *text, size_t floor, size_t end)
{
    size_t i = end;

    while (i > floor) {
        char c = text[--i];
        if (c == '"' || c == '\'') {
            /* a quoted value never holds its own quote: skip to the
             * opening one */
            while (i > floor && text[i - 1] != c)
                i--;
            if (i == floor)
                return SIZE_MAX;
            i--;
        } else if (c == '<') {
            return i;
        }
    }
    return SIZE_MAX;
}

size_t tag_find_start_html(const char *text, size_t floor, size_t end,
                           const char *name)
{
    size_t n = strlen(name), i;

    for (i = floor; i + 1 + n <= end; i++) {
        struct tag_attr a;
        size_t cursor = i, k;
        char after;

        if (text[i] != '<')
            continue;
        for (k = 0; k < n; k++) {
            char c = text[i + 1 + k];
            if (c >= 'A' && c <= 'Z')
                c = (char)(c - 'A' + 'a');
            if (c != name[k])
                break;
        }
        after = i + 1 + n < end ? text[i + 1 + n] : '>';
        if (k < n || !(is_ws(after) || after == '/' || after == '>'))
            continue;
        while (tag_next_attr(text, end + 1, &cursor, &a))
            ;
        /* end is the '>', or the '/' of "/>" */
        if (cursor == end || (text[end] == '/' && cursor == end + 1))
            return i;
    }
    return SIZE_MAX;
}

size_t tag_find_end_start(const char *text, size_t end)
{
    size_t i = end;

    while (i > 0) {
        i--;
        if (text[i] == '<')
            return text[i + 1] == '/' ? i : SIZE_MAX;
    }
    return SIZE_MAX;
}

bool tag_next_attr(const char *text, size_t end, size_t *cursor,
                   struct tag_attr *a)
{
    size_t i = *cursor;

    if (i < end && text[i] == '<') {
        /* skip the element name */
        i++;
        while (i < end && !is_ws(text[i]) && text[i] != '/' &&
               text[i] != '>')
            i++;
    }
    for (;;) {
        while (i < end && (is_ws(text[i]) || text[i] == '/'))
            i++;
        if (i >= end || text[i] == '>') {
            *cursor = i;
            return false;
        }
        a->name = i;
        /* HTML attribute name state: up to whitespace, '/', '>' or '=';
         * a leading '=' belongs to the name */
        i++;
        while (i < end && !is_ws(text[i]) && text[i] != '/' &&
               text[i] != '>' && text[i] != '=')
            i++;
        a->name_len = i - a->name;
        while (i < end && is_ws(text[i]))
            i++;
        a->quote = 0;
        a->value = a->name + a->name_len;
        a->value_len = 0;
        if (i < end && text[i] == '=') {
            i++;
            while (i < end && is_ws(text[i]))
                i++;
            if (i < end && (text[i] == '"' || text[i] == '\'')) {
                a->quote = text[i++];
                a->value = i;
                while (i < end && text[i] != a->quote)
                    i++;
                a->value_len = i - a->value;
                if (i < end)
                    i++;
            } else {
                a->value = i;
                while (i < end && !is_ws(text[i]) && text[i] != '>')
                    i++;
                a->value_len = i - a->value;
            }
        }
        *cursor = i;
        return true;
    }
}
