/* floor_sax.c - the floor of the document-pass benchmark: a bare libxml2
 * SAX parse (push parser, 64 KiB chunks, empty callbacks) of one file, the
 * least work any SAX-based link tool does.  Run by bench/docbench.sh.
 * With -r it measures another floor, that of the parser's thread in a
 * design that would hand the walker's work to a second thread: each event
 * copied into a ring buffer (bench/README.md, seventeenth batch). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

/* The chunk size (xiri's walker gives libxml2 16 KiB at a time,
 * src/lib/walk.h WALK_STEP: 16 KiB chunks here measured within 3% of
 * these, bench/README.md twenty-third session). */
#define FLOOR_CHUNK 65536

/* Counters for -c: a check that the parse saw the whole document,
 * decoded (never timed). */
struct counts {
    unsigned long elements, attributes, text_bytes, non_ascii;
    bool fatal;
};

static struct counts counts;

/* -r: the ring the events are copied into, overwritten when full (a
 * consumer thread would have emptied it), and the parser whose position
 * each start tag records. */
static unsigned char ring[1 << 20];
static size_t ring_at;
static xmlParserCtxtPtr record_px;

static void record(const void *p, size_t n)
{
    if (n > sizeof(ring))
        n = sizeof(ring);
    if (ring_at + n > sizeof(ring))
        ring_at = 0;
    memcpy(ring + ring_at, p, n);
    ring_at += n;
}

/* What a start tag's event would carry: its names (interned by the
 * parser's dictionary: pointers), its place, and each attribute's names
 * and value, the value copied. */
static void record_start_ns(void *ctx, const xmlChar *localname,
                            const xmlChar *prefix, const xmlChar *uri,
                            int nb_namespaces, const xmlChar **namespaces,
                            int nb_attributes, int nb_defaulted,
                            const xmlChar **attrs)
{
    struct {
        const void *local, *uri;
        long pos;
        int line, nattrs;
    } ev;
    struct {
        const void *local, *uri;
        size_t len;
    } at;
    const xmlParserInput *in = record_px->input;
    int i;

    (void)ctx, (void)prefix, (void)nb_namespaces, (void)namespaces;
    (void)nb_defaulted;
    ev.local = localname;
    ev.uri = uri;
    ev.pos = (long)in->consumed + (long)(in->cur - in->base);
    ev.line = in->line;
    ev.nattrs = nb_attributes;
    record(&ev, sizeof(ev));
    for (i = 0; i < nb_attributes; i++) {
        at.local = attrs[5 * i];
        at.uri = attrs[5 * i + 2];
        at.len = (size_t)(attrs[5 * i + 4] - attrs[5 * i + 3]);
        record(&at, sizeof(at));
        record(attrs[5 * i + 3], at.len);
    }
}

static void record_end_ns(void *ctx, const xmlChar *localname,
                          const xmlChar *prefix, const xmlChar *uri)
{
    struct {
        const void *local;
        long pos;
    } ev;
    const xmlParserInput *in = record_px->input;

    (void)ctx, (void)prefix, (void)uri;
    ev.local = localname;
    ev.pos = (long)in->consumed + (long)(in->cur - in->base);
    record(&ev, sizeof(ev));
}

static void record_characters(void *ctx, const xmlChar *ch, int len)
{
    (void)ctx, (void)ch;
    record(&len, sizeof(len)); /* a length: the text stays in the input */
}

static void floor_start_ns(void *ctx, const xmlChar *localname,
                           const xmlChar *prefix, const xmlChar *uri,
                           int nb_namespaces, const xmlChar **namespaces,
                           int nb_attributes, int nb_defaulted,
                           const xmlChar **attrs)
{
    (void)ctx, (void)localname, (void)prefix, (void)uri;
    (void)nb_namespaces, (void)namespaces, (void)nb_attributes;
    (void)nb_defaulted, (void)attrs;
}

static void floor_end_ns(void *ctx, const xmlChar *localname,
                         const xmlChar *prefix, const xmlChar *uri)
{
    (void)ctx, (void)localname, (void)prefix, (void)uri;
}

static void floor_start(void *ctx, const xmlChar *name, const xmlChar **atts)
{
    (void)ctx, (void)name, (void)atts;
}

static void floor_end(void *ctx, const xmlChar *name)
{
    (void)ctx, (void)name;
}

static void floor_characters(void *ctx, const xmlChar *ch, int len)
{
    (void)ctx, (void)ch, (void)len;
}

static void floor_error(void *user, xmlErrorPtr e)
{
    (void)user;
    if (e && e->level == XML_ERR_FATAL && !counts.fatal) {
        counts.fatal = true;
        fprintf(stderr, "floor_sax: line %d: %s", e->line,
                e->message ? e->message : "fatal error\n");
    }
}

/* -c: the same events, counted. */
static void count_text(const xmlChar *s, size_t n)
{
    size_t i;

    counts.text_bytes += n;
    for (i = 0; i < n; i++)
        if (s[i] >= 0xC0) /* a UTF-8 lead byte: one non-ASCII character */
            counts.non_ascii++;
}

static void count_start_ns(void *ctx, const xmlChar *localname,
                           const xmlChar *prefix, const xmlChar *uri,
                           int nb_namespaces, const xmlChar **namespaces,
                           int nb_attributes, int nb_defaulted,
                           const xmlChar **attrs)
{
    int i;

    (void)ctx, (void)localname, (void)prefix, (void)uri;
    (void)nb_namespaces, (void)namespaces, (void)nb_defaulted;
    counts.elements++;
    counts.attributes += (unsigned long)nb_attributes;
    for (i = 0; i < nb_attributes; i++)
        count_text(attrs[5 * i + 3],
                   (size_t)(attrs[5 * i + 4] - attrs[5 * i + 3]));
}

static void count_start(void *ctx, const xmlChar *name, const xmlChar **atts)
{
    int i;

    (void)ctx, (void)name;
    counts.elements++;
    for (i = 0; atts && atts[i]; i += 2) {
        counts.attributes++;
        if (atts[i + 1])
            count_text(atts[i + 1], strlen((const char *)atts[i + 1]));
    }
}

static void count_characters(void *ctx, const xmlChar *ch, int len)
{
    (void)ctx;
    count_text(ch, (size_t)len);
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);

    return n >= k && strcmp(s + n - k, suffix) == 0;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: floor_sax [--xml|--html] [-c|-r] FILE\n"
            "  Parse FILE with libxml2's push parser (SAX2 for XML, the HTML\n"
            "  parser for HTML; chosen by the name: .html/.htm are HTML) in\n"
            "  %d-byte chunks with empty callbacks; libxml2 detects and\n"
            "  decodes the encoding itself.  -c counts elements, attributes\n"
            "  and text instead (a sanity check, not the floor).  -r (XML)\n"
            "  copies each event into a ring buffer: the floor of a parser\n"
            "  thread that hands the rest to another.\n"
            "  Exit 0 when parsed, 1 on a fatal XML error, 2 on bad usage or\n"
            "  I/O error.\n",
            FLOOR_CHUNK);
    return 2;
}

int main(int argc, char **argv)
{
    const char *file = NULL;
    int html = -1, count = 0, rec = 0, i, fd, rc = 0;
    static char chunk[FLOOR_CHUNK];
    xmlSAXHandler sax;
    xmlParserCtxtPtr px = NULL;
    ssize_t n;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--xml") == 0)
            html = 0;
        else if (strcmp(argv[i], "--html") == 0)
            html = 1;
        else if (strcmp(argv[i], "-c") == 0)
            count = 1;
        else if (strcmp(argv[i], "-r") == 0)
            rec = 1;
        else if (argv[i][0] == '-' || file)
            return usage();
        else
            file = argv[i];
    }
    if (!file || (count && rec))
        return usage();
    if (html < 0)
        html = has_suffix(file, ".html") || has_suffix(file, ".htm");
    if (html && rec)
        return usage(); /* (measured on XML only, so far) */
    fd = open(file, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "floor_sax: %s: %s\n", file, strerror(errno));
        return 2;
    }

    xmlInitParser();
    memset(&sax, 0, sizeof(sax));
    sax.initialized = XML_SAX2_MAGIC;
    sax.serror = floor_error;
    sax.characters = count ? count_characters : floor_characters;
    sax.cdataBlock = sax.characters;
    if (html) {
        sax.startElement = count ? count_start : floor_start;
        sax.endElement = floor_end;
        /* XML_CHAR_ENCODING_NONE: libxml2 finds <meta charset> itself */
        px = htmlCreatePushParserCtxt(&sax, NULL, NULL, 0, file,
                                      XML_CHAR_ENCODING_NONE);
        if (px)
            htmlCtxtUseOptions(px, HTML_PARSE_NONET | HTML_PARSE_NOERROR |
                                       HTML_PARSE_NOWARNING);
    } else {
        sax.startElementNs = count ? count_start_ns : floor_start_ns;
        sax.endElementNs = floor_end_ns;
        if (rec) {
            sax.startElementNs = record_start_ns;
            sax.endElementNs = record_end_ns;
            sax.characters = sax.cdataBlock = record_characters;
        }
        px = xmlCreatePushParserCtxt(&sax, NULL, NULL, 0, file);
        record_px = px;
        if (px)
            xmlCtxtUseOptions(px, XML_PARSE_NONET | XML_PARSE_NOERROR |
                                      XML_PARSE_NOWARNING);
    }
    if (!px) {
        fprintf(stderr, "floor_sax: out of memory\n");
        close(fd);
        return 2;
    }
    for (;;) {
        n = read(fd, chunk, sizeof(chunk));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fprintf(stderr, "floor_sax: %s: %s\n", file, strerror(errno));
            rc = 2;
            break;
        }
        if (html)
            htmlParseChunk(px, chunk, (int)n, n == 0);
        else
            xmlParseChunk(px, chunk, (int)n, n == 0);
        if (n == 0 || counts.fatal)
            break;
    }
    close(fd);
    if (rc == 0 && (counts.fatal || (!html && !px->wellFormed)))
        rc = 1;
    if (count)
        printf("%s: %s, encoding %s: %lu elements, %lu attributes, "
               "%lu bytes of text and values, %lu non-ASCII characters\n",
               file, html ? "HTML" : "XML",
               px->encoding ? (const char *)px->encoding
               : px->input && px->input->buf && px->input->buf->encoder
                   ? px->input->buf->encoder->name
                   : "(none)",
               counts.elements, counts.attributes, counts.text_bytes,
               counts.non_ascii);
    if (px->myDoc)
        xmlFreeDoc(px->myDoc);
    if (html)
        htmlFreeParserCtxt(px);
    else
        xmlFreeParserCtxt(px);
    return rc;
}
