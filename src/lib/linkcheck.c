/* linkcheck.c - placeholder */
#include "common.h"
