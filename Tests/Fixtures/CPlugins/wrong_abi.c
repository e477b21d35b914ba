/* A plugin that claims ABI version 2: the host must refuse it, naming both versions. */
#include <stddef.h>
#include "trailhead_tool.h"

static int call(const char *tool, const char *arguments, char **out) { (void)tool; (void)arguments; *out = NULL; return 1; }
static void release(char *p) { (void)p; }

static const trailhead_plugin descriptor = { 2u, "wrongabi", NULL, NULL, call, release, NULL };

const trailhead_plugin *trailhead_plugin_v1(void) { return &descriptor; }
