#include <asm/errno.h>
#include "../kshim.h"
