/* input.c - placeholder */
#include "common.h"
