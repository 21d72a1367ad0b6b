/* fuzz_xsd.c - libFuzzer target for the XML Schema reader: the input is
 * written to a temporary file and loaded into a fresh registry.  A load
 * either succeeds or fails cleanly, and a failed load leaves the registry
 * as it was (empty). */
#include "fuzz.h"
#include "xiri.h"

#include <string.h>
#include <unistd.h>

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
    st = xiri_registry_load_schema(reg, path, &err);
    unlink(path);
    if (st != XIRI_OK) {
        FUZZ_ASSERT(xiri_registry_count(reg) == 0);
        FUZZ_ASSERT(memchr(err.message, '\0', sizeof(err.message)) != NULL);
    }
    xiri_registry_free(reg);
    return 0;
}
