/* shapes.c - placeholder */
#include "common.h"
