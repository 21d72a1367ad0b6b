/* xsd.c - placeholder */
#include "common.h"
