/* fuzz_xsd.c - libFuzzer target for the XML Schema reader: the input is
 * written to a temporary file and loaded into a fresh registry.  A load
 * either succeeds or fails cleanly, and a failed load leaves the registry
 * as it was (empty); each notice of a remote location not read fits its
 * 512 bytes. */
#include "fuzz.h"
#include "xiri.h"

#include <string.h>
#include <unistd.h>

static void on_notice(void *user, const char *message)
{
    (void)user;
    FUZZ_ASSERT(strlen(message) < 512);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/xiri-fuzz-xsd-XXXXXX";
    struct xiri_registry *reg = NULL;
    struct xiri_error err;
    enum xiri_status st;
    int fd = mkstemp(path);

    if (fd < 0)
        abort();
    if (write(fd, data, size) != (ssize_t)size)
        abort();
    close(fd);
    if (xiri_registry_new(&reg) != XIRI_OK)
        abort();
    xiri_registry_set_notice(reg, on_notice, NULL);
    st = xiri_registry_load_schema(reg, path, &err);
    unlink(path);
    if (st != XIRI_OK) {
        FUZZ_ASSERT(xiri_registry_count(reg) == 0);
        FUZZ_ASSERT(memchr(err.message, '\0', sizeof(err.message)) != NULL);
    }
    xiri_registry_free(reg);
    return 0;
}
