/* codes.h - placeholder */
#ifndef XIRI_CODES_H
#define XIRI_CODES_H
#include "common.h"
#endif
