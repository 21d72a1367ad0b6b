/* options.c - what every command shares to read its options: one table
 * type for long options and its lookup (unknown options, options of
 * another command, missing or extra values, keyword values, all with the
 * same messages), the walker's --max-* limits of check, links and
 * rewrite, and the outcome of a run (worst exit status, stop). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- run outcome */

void cli_set_status(struct cli_state *s, int status)
{
    if (status > s->status)
        s->status = status;
}

void cli_out_of_memory(struct cli_state *s)
{
    if (!s->stop)
        msg_error("out of memory");
    cli_set_status(s, CLI_EXIT_USAGE);
    s->stop = true;
}

/* ------------------------------------------------------------ lookup */

int opt_unknown(const char *usage, const char *arg, size_t len)
{
    msg_text(CLI_PROG ": unknown option ");
    msg_quoted(arg, len);
    fprintf(stderr, "; see '%s --help'\n", usage);
    return CLI_EXIT_USAGE;
}

int opt_parse_keyword(const char *usage, const char *opt,
                      const struct opt_keyword *kw, const char *value, int *out)
{
    size_t i;

    for (i = 0; kw[i].name; i++)
        if (strcmp(kw[i].name, value) == 0) {
            *out = kw[i].value;
            return 0;
        }
    msg_text(CLI_PROG ": unknown value ");
    msg_quoted(value, strlen(value));
    fprintf(stderr, " for --%s; use ", opt);
    for (i = 0; kw[i].name; i++) {
        if (i > 0)
            fputs(kw[i + 1].name ? ", " : " or ", stderr);
        fputs(kw[i].name, stderr);
    }
    fprintf(stderr, "; see '%s --help'\n", usage);
    return CLI_EXIT_USAGE;
}

int opt_long(const struct opt_table *t, struct argscan *as, const char *arg,
             const char *name, size_t name_len, const char **value,
             const struct opt_def **def, int *kw)
{
    const struct opt_def *d = NULL, *other = NULL;
    size_t i;

    *def = NULL;
    *kw = 0;
    for (i = 0; i < t->n && !d; i++)
        if (strlen(t->defs[i].name) == name_len &&
            memcmp(t->defs[i].name, name, name_len) == 0) {
            if (t->defs[i].cmds == 0 || (t->defs[i].cmds & t->cmd))
                d = &t->defs[i];
            else if (!other)
                other = &t->defs[i];
        }
    if (!d && !other)
        return opt_unknown(t->usage, arg,
                           *value ? (size_t)(*value - 1 - arg) : strlen(arg));
    /* CLI_EXIT_USAGE rather than usage_error's result: the static
     * analyzer, which does not follow calls into io.c, then sees that
     * *def is set whenever 0 is returned */
    if (!d) {
        usage_error(t->usage, "option '--%s' does not apply to '%s'",
                    other->name, t->usage);
        return CLI_EXIT_USAGE;
    }
    if (d->arg == OPT_FLAG && *value) {
        usage_error(t->usage, "option '--%s' takes no value", d->name);
        return CLI_EXIT_USAGE;
    }
    if (d->arg == OPT_VALUE && !*value) {
        *value = argscan_take(as);
        if (!*value) {
            usage_error(t->usage, "option '--%s' needs a value", d->name);
            return CLI_EXIT_USAGE;
        }
    }
    if (d->values && *value) {
        int st = opt_parse_keyword(t->usage, d->name, d->values, *value, kw);

        if (st)
            return st;
    }
    *def = d;
    return 0;
}

/* ------------------------------------------------------------ limits */

/* A limit: a positive decimal number; for a size, optionally followed by
 * K, M or G (times 1024, 1024^2, 1024^3).  At most max.  *out is set
 * only on success; every failure returns CLI_EXIT_USAGE itself (not
 * usage_error's result), so that the static analyzer sees *out is never
 * read unset. */
static int parse_limit(const char *usage, const char *opt, const char *value,
                       bool size, unsigned long max, unsigned long *out)
{
    unsigned long v = 0, mul = 1;
    const char *p = value;

    if (*p < '0' || *p > '9')
        goto bad;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (v > (max - (unsigned long)(*p - '0')) / 10)
            goto big;
        v = v * 10 + (unsigned long)(*p - '0');
    }
    if (size && *p && !p[1] && strchr("kKmMgG", *p)) {
        mul = *p == 'k' || *p == 'K' ? 1UL << 10
              : *p == 'm' || *p == 'M' ? 1UL << 20 : 1UL << 30;
        p++;
    }
    if (*p)
        goto bad;
    if (v == 0) {
        usage_error(usage, "--%s must be at least 1", opt);
        return CLI_EXIT_USAGE;
    }
    if (v > max / mul)
        goto big;
    *out = v * mul;
    return 0;
bad:
    usage_error(usage, "--%s takes a number%s, not '%s'", opt,
                size ? " of bytes (K, M or G for units)" : "", value);
    return CLI_EXIT_USAGE;
big:
    usage_error(usage, "--%s is at most %lu", opt, max);
    return CLI_EXIT_USAGE;
}

bool opt_is_limit(const struct opt_def *d)
{
    return d->id >= OPT_MAX_VALUE && d->id <= OPT_MAX_ENTITY_EXPANSION;
}

int opt_limit(const char *usage, const struct opt_def *d, const char *value,
              struct xiri_walk_options *limits)
{
    unsigned long n = 0;
    bool size = d->id == OPT_MAX_VALUE || d->id == OPT_MAX_MARKUP ||
                d->id == OPT_MAX_ENTITY_EXPANSION;
    /* the walker holds no more than 1 GiB (XIRI_MAX_LEN); the counts
     * and the entity expansion are at most 2^32 - 1 */
    unsigned long max = size && d->id != OPT_MAX_ENTITY_EXPANSION
                            ? 1UL << 30
                            : 0xFFFFFFFFUL;
    int st = parse_limit(usage, d->name, value, size, max, &n);

    if (st)
        return st;
    switch (d->id) {
    case OPT_MAX_VALUE:
        limits->max_value = n;
        break;
    case OPT_MAX_MARKUP:
        limits->max_markup = n;
        break;
    case OPT_MAX_DEPTH:
        limits->max_depth = n;
        break;
    case OPT_MAX_ATTRIBUTES:
        limits->max_attributes = n;
        break;
    case OPT_MAX_NAMESPACES:
        limits->max_namespaces = n;
        break;
    case OPT_MAX_DEFAULT_ATTRIBUTES:
        limits->max_default_attributes = n;
        break;
    case OPT_MAX_ENTITY_EXPANSION:
        limits->max_entity_expansion = n;
        break;
    default:
        break;
    }
    return 0;
}

void opt_limits_apply(const struct xiri_walk_options *limits,
                      struct xiri_walk_options *wo)
{
    if (limits->max_value)
        wo->max_value = limits->max_value;
    if (limits->max_markup)
        wo->max_markup = limits->max_markup;
    if (limits->max_depth)
        wo->max_depth = limits->max_depth;
    if (limits->max_attributes)
        wo->max_attributes = limits->max_attributes;
    if (limits->max_namespaces)
        wo->max_namespaces = limits->max_namespaces;
    if (limits->max_default_attributes)
        wo->max_default_attributes = limits->max_default_attributes;
    if (limits->max_entity_expansion)
        wo->max_entity_expansion = limits->max_entity_expansion;
}
