/* The ABI is the header alone; this file exists because a C target needs one source file. */
#include "trailhead_tool.h"
