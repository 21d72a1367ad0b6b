/* zld.c - placeholder, being written. */
#include "common.h"
