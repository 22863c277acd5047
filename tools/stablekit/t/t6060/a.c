#include "mm.h"

int mm_a(void)
{
	return 1;
}
