/* A plugin that reaches beyond what its manifest grants, as an untrusted plugin might:
 *     gcc -shared -fPIC -I Sources/CTrailheadTool/include -o libprying.so prying_plugin.c
 * Tools: read_file {path} (its size and first bytes), write_file {path, text}, open_socket
 * {family: "inet" | "inet6" | "unix"} (creates a socket and, for inet, connects to
 * 127.0.0.1:port). Each failure is a tool error naming the call and strerror(errno), so what the
 * sandbox denied reads as such. Arguments are parsed naively: this is a test fixture. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "trailhead_tool.h"

static const char manifest[] =
    "{\"manifestVersion\":1,\"plugin\":\"prying\",\"version\":\"0.1.0\",\"isolation\":\"process\",\"timeoutMs\":5000,"
    "\"permissions\":{\"read\":[],\"write\":[],\"network\":false},"
    "\"tools\":["
    "{\"name\":\"read_file\",\"description\":\"Reads a file.\",\"arguments\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}},"
    "{\"name\":\"write_file\",\"description\":\"Writes a file.\",\"arguments\":{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"text\":{\"type\":\"string\"}},\"required\":[\"path\",\"text\"]}},"
    "{\"name\":\"open_socket\",\"description\":\"Opens a socket.\",\"arguments\":{\"type\":\"object\",\"properties\":{\"family\":{\"enum\":[\"inet\",\"inet6\",\"unix\"]},\"port\":{\"type\":\"integer\"}}}}]}";

/* The string value of "key" in a flat JSON object (no escapes in the fixture's arguments). */
static int string_argument(const char *json, const char *key, char *out, size_t size) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char *start = strstr(json, pattern);
    if (!start) return 0;
    start += strlen(pattern);
    const char *end = strchr(start, '"');
    if (!end || (size_t)(end - start) >= size) return 0;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = 0;
    return 1;
}

static int failure(char **result_out, const char *what, const char *subject) {
    char message[1024];
    snprintf(message, sizeof message, "{\"error\":\"%s %s: %s\"}", what, subject, strerror(errno));
    *result_out = strdup(message);
    return 1;
}

static int read_file(const char *arguments, char **result_out) {
    char path[512];
    if (!string_argument(arguments, "path", path, sizeof path)) { *result_out = strdup("{\"error\":\"path?\"}"); return 1; }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return failure(result_out, "cannot read", path);
    char buffer[64];
    ssize_t count = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (count < 0) return failure(result_out, "cannot read", path);
    int printable = 0;
    while (printable < count && buffer[printable] >= 0x20 && buffer[printable] < 0x7f && buffer[printable] != '"' && buffer[printable] != '\\') printable++;
    buffer[printable] = 0;
    char result[256];
    snprintf(result, sizeof result, "{\"read\":%zd,\"start\":\"%s\"}", count, buffer);
    *result_out = strdup(result);
    return 0;
}

static int write_file(const char *arguments, char **result_out) {
    char path[512], text[256];
    if (!string_argument(arguments, "path", path, sizeof path) || !string_argument(arguments, "text", text, sizeof text)) {
        *result_out = strdup("{\"error\":\"path and text?\"}");
        return 1;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return failure(result_out, "cannot write", path);
    ssize_t written = write(fd, text, strlen(text));
    close(fd);
    if (written < 0) return failure(result_out, "cannot write", path);
    char result[64];
    snprintf(result, sizeof result, "{\"written\":%zd}", written);
    *result_out = strdup(result);
    return 0;
}

static int open_socket(const char *arguments, char **result_out) {
    char family[16] = "inet";
    string_argument(arguments, "family", family, sizeof family);
    const char *port_text = strstr(arguments, "\"port\":");
    int port = port_text ? atoi(port_text + 7) : 9;
    int domain = strcmp(family, "inet6") == 0 ? AF_INET6 : strcmp(family, "unix") == 0 ? AF_UNIX : AF_INET;
    int fd = socket(domain, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return failure(result_out, "cannot open a socket of family", family);
    if (domain == AF_INET) {
        struct sockaddr_in address = {0};
        address.sin_family = AF_INET;
        address.sin_port = htons((unsigned short)port);
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            char subject[16];
            snprintf(subject, sizeof subject, "%d", port);
            return failure(result_out, "cannot connect to 127.0.0.1 on port", subject);
        }
    }
    close(fd);
    *result_out = strdup("{\"connected\":true}");
    return 0;
}

static int plugin_call(const char *tool, const char *arguments_json, char **result_out) {
    if (strcmp(tool, "read_file") == 0) return read_file(arguments_json, result_out);
    if (strcmp(tool, "write_file") == 0) return write_file(arguments_json, result_out);
    if (strcmp(tool, "open_socket") == 0) return open_socket(arguments_json, result_out);
    *result_out = strdup("{\"error\":\"unknown tool\"}");
    return 1;
}

static void plugin_free(char *p) { free(p); }

static const trailhead_plugin descriptor = {
    TRAILHEAD_TOOL_ABI_VERSION, "prying", manifest, NULL, plugin_call, plugin_free, NULL,
};

const trailhead_plugin *trailhead_plugin_v1(void) { return &descriptor; }
