/* status.c - status strings, error detail, version, and the small public
 * helpers shared by every module. */
#include "common.h"
#include "mem.h"
#include "mojibake.h"

#include <stdarg.h>
#include <stdio.h>

static const char *const status_text[XIRI_STATUS_COUNT] = {
    [XIRI_OK] = "success",
    [XIRI_ENOMEM] = "out of memory",
    [XIRI_EINVAL] = "invalid argument",
    [XIRI_ESYNTAX] = "not a valid reference",
    [XIRI_ENOTABS] = "base is not an absolute IRI",
    [XIRI_EIDNA] = "host name rejected by IDNA",
    [XIRI_EFORBIDDEN] = "character not allowed in the output",
    [XIRI_ELIMIT] = "over a size limit",
    [XIRI_EUNICODE] = "Unicode library failure",
    [XIRI_EDOC] = "document is not well-formed",
    [XIRI_EENCODING] = "unknown or unsupported character encoding",
    [XIRI_EIO] = "input/output error",
    [XIRI_ECANCELED] = "stopped by a callback",
};

const char *xiri_strerror(enum xiri_status st)
{
    if ((unsigned)st >= XIRI_STATUS_COUNT)
        return "unknown status";
    return status_text[st];
}

const char *xiri_version(void)
{
    return PACKAGE_VERSION;
}

void xiri_str_free(char *s)
{
    mem_free(s);
}

enum xiri_status error_set(struct xiri_error *err, enum xiri_status st,
                           size_t offset, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (!err)
        return st;
    err->status = st;
    err->offset = offset;
    va_start(ap, fmt);
    n = vsnprintf(err->message, sizeof(err->message), fmt, ap);
    va_end(ap);
    /* cut: say so, rather than end in the middle of a word, before a
     * UTF-8 character rather than inside it */
    if (n >= (int)sizeof(err->message))
        memcpy(err->message + moji_cut(err->message, sizeof(err->message) - 1,
                                       sizeof(err->message) - 4),
               "...", 4);
    return st;
}

static const char *const severity_text[] = {"note", "warning", "error"};

const char *xiri_severity_name(enum xiri_severity sev)
{
    if ((unsigned)sev >= ARRAY_LEN(severity_text))
        return "unknown";
    return severity_text[sev];
}

static const char *const profile_text[XIRI_PROFILE_COUNT] = {
    [XIRI_PROFILE_RFC3987] = "rfc3987",
    [XIRI_PROFILE_URI] = "uri",
    [XIRI_PROFILE_LEIRI] = "leiri",
    [XIRI_PROFILE_HTML] = "html",
};

const char *xiri_profile_name(enum xiri_profile p)
{
    if ((unsigned)p >= XIRI_PROFILE_COUNT)
        return "unknown";
    return profile_text[p];
}

enum xiri_status xiri_profile_from_name(const char *name,
                                        enum xiri_profile *out)
{
    size_t i;

    if (!name || !out)
        return XIRI_EINVAL;
    for (i = 0; i < XIRI_PROFILE_COUNT; i++)
        if (strcmp(name, profile_text[i]) == 0) {
            *out = (enum xiri_profile)i;
            return XIRI_OK;
        }
    return XIRI_EINVAL;
}
