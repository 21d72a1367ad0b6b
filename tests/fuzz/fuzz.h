/* fuzz.h - shared by the libFuzzer targets and the replay driver. */
#ifndef XIRI_FUZZ_H
#define XIRI_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property the target asserts failed: a wrong answer is a crash. */
#define FUZZ_ASSERT(cond)                                                     \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                         \
            abort();                                                          \
        }                                                                     \
    } while (0)

#endif
