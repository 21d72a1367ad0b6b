/* uninstalled.c - let a xiri run from its build tree find the source
 * tree's schemas/ (the README's quick start runs build/xiri before any
 * "make install").  An installed xiri never looks outside $XIRI_SCHEMA_DIR
 * and its installed schema directory: a packaged binary must not read a
 * build path that may not exist on the user's machine, or that someone
 * else could create. */
/* realpath() is an X/Open function */
#define _XOPEN_SOURCE 700
#include "cli.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

void cli_use_source_schemas(void)
{
#if defined(XIRI_BUILD_DIR) && defined(XIRI_SOURCE_SCHEMA_DIR)
    char exe[PATH_MAX], build[PATH_MAX];
    const char *env = getenv("XIRI_SCHEMA_DIR");
    ssize_t n;
    size_t bl;

    if (env && *env)
        return; /* the user's choice wins */
    /* Linux: the running executable (under libtool, build/.libs/xiri) */
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    if (!realpath(XIRI_BUILD_DIR, build))
        return;
    bl = strlen(build);
    if (strncmp(exe, build, bl) == 0 && exe[bl] == '/')
        setenv("XIRI_SCHEMA_DIR", XIRI_SOURCE_SCHEMA_DIR, 1);
#endif
}
