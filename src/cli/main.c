#include <stdio.h>
#include "xiri.h"
int main(void) { puts(xiri_version()); return 0; }
