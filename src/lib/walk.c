/* walk.c - placeholder */
#include "common.h"
