/* A Trailhead plugin in plain C, written against trailhead_tool.h alone:
 *     gcc -shared -fPIC -I Sources/CTrailheadTool/include -o libcplain.so plain_plugin.c
 * Tools: c_echo (returns its arguments), c_fail (a tool error), c_segfault (crashes),
 * c_not_json (returns text that is not JSON), c_huge (returns a 2 MB document). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include "trailhead_tool.h"

static const char manifest[] =
    "{\"manifestVersion\":1,\"plugin\":\"cplain\",\"version\":\"0.1.0\",\"isolation\":\"process\",\"timeoutMs\":2000,"
    "\"tools\":["
    "{\"name\":\"c_echo\",\"description\":\"Returns its arguments.\",\"arguments\":{\"type\":\"object\"}},"
    "{\"name\":\"c_fail\",\"description\":\"Fails.\",\"arguments\":{\"type\":\"object\"}},"
    "{\"name\":\"c_segfault\",\"description\":\"Crashes.\",\"arguments\":{\"type\":\"object\"}},"
    "{\"name\":\"c_not_json\",\"description\":\"Returns text that is not JSON.\",\"arguments\":{\"type\":\"object\"}},"
    "{\"name\":\"c_huge\",\"description\":\"Returns 2 MB.\",\"arguments\":{\"type\":\"object\"}}]}";

static int opened = 0;

static int plugin_open(const char *config_json, char **error_out) {
    (void)config_json;
    (void)error_out;
    opened = 1;
    return 0;
}

static int plugin_call(const char *tool, const char *arguments_json, char **result_out) {
    if (!opened) { *result_out = strdup("{\"error\":\"call before open\"}"); return 1; }
    if (strcmp(tool, "c_echo") == 0) { *result_out = strdup(arguments_json); return 0; }
    if (strcmp(tool, "c_fail") == 0) { *result_out = strdup("{\"error\":\"c_fail always fails\"}"); return 1; }
    if (strcmp(tool, "c_segfault") == 0) { volatile int *p = (int *)16; *p = 1; return 0; }
    if (strcmp(tool, "c_not_json") == 0) { *result_out = strdup("this is not json"); return 0; }
    if (strcmp(tool, "c_huge") == 0) {
        size_t n = 2u << 20;
        char *text = malloc(n + 3);
        text[0] = '"';
        memset(text + 1, 'x', n);
        text[n + 1] = '"';
        text[n + 2] = 0;
        *result_out = text;
        return 0;
    }
    *result_out = strdup("{\"error\":\"unknown tool\"}");
    return 1;
}

static void plugin_free(char *p) { free(p); }

static const trailhead_plugin descriptor = {
    TRAILHEAD_TOOL_ABI_VERSION, "cplain", manifest, plugin_open, plugin_call, plugin_free, NULL,
};

const trailhead_plugin *trailhead_plugin_v1(void) { return &descriptor; }
