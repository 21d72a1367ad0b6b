/* preset.c - placeholder */
#include "common.h"
