/* tagscan.c - placeholder */
#include "common.h"
