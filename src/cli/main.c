#include <stdio.h>
#include "hlorun/hlorun.h"
int main(void) { puts("hlorun " HLORUN_VERSION_STRING); return 0; }
