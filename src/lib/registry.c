/* registry.c - placeholder until the registry lands. */
#include "common.h"
#include "registry.h"

bool registry_find_attr(const struct xiri_registry *reg,
                        const char *element_ns, const char *element,
                        const char *attr_ns, const char *attr, bool html,
                        enum xiri_shape *shape)
{
    (void)reg, (void)element_ns, (void)element, (void)attr_ns, (void)attr;
    (void)html, (void)shape;
    return false;
}

bool registry_find_content(const struct xiri_registry *reg,
                           const char *element_ns, const char *element,
                           bool html, enum xiri_shape *shape)
{
    (void)reg, (void)element_ns, (void)element, (void)html, (void)shape;
    return false;
}
