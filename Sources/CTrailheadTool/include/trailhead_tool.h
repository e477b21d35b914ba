/*
 * trailhead_tool.h — the Trailhead plugin ABI, version 1.
 *
 * A plugin is a shared library that exports one symbol, `trailhead_plugin_v1`, returning a
 * descriptor. The runtime (the `agent` process, or an `agent-tool-host` worker when the plugin is
 * isolated) loads it with dlopen(RTLD_NOW | RTLD_LOCAL), checks `abi_version` and `name` against
 * the plugin's manifest, calls `open` once with the manifest's "config", then calls tools.
 *
 * This header is plain C and self-contained: a plugin written anywhere compiles against it with
 *     gcc -shared -fPIC -o libX.so x.c
 *
 * Strings. Every string crossing the boundary is UTF-8 and NUL-terminated. Strings the host
 * passes in (`config_json`, `tool_name`, `arguments_json`) belong to the host and are valid only
 * during the call; copy what you keep. Strings the plugin hands out through `*error_out` or
 * `*result_out` are allocated by the plugin and released by the host with the plugin's own
 * `free_result` (never the host's `free`), exactly once. The descriptor and the strings it points
 * to (`name`, `manifest_json`) are static storage owned by the plugin, never freed.
 *
 * Config. `open` receives the manifest's "config" object as JSON text, with one member added by
 * the host: "$home", the absolute path of the installation folder (the one holding Plugins/,
 * Manifests/ and Data/). Relative paths in the config are meant relative to it; Swift plugins
 * resolve them with PluginConfig.path(_:). When the plugin runs standalone
 * (`agent-tool-host Plugins/libX.so`), "$home" is the parent of the library's folder.
 *
 * Isolation. By default the plugin is loaded in its own `agent-tool-host` worker process, not in
 * the agent: a crash or hang there is reported as a tool error and the worker is restarted. In
 * the worker, file descriptor 1 is pointed at stderr before the library is loaded, so anything
 * the plugin prints (printf, puts) ends up on stderr and cannot corrupt the protocol.
 *
 * Plain C libraries. A library whose tools all use the manifest's "native" binding (functions
 * called through libffi) need not export `trailhead_plugin_v1` at all; if it does, it is checked
 * like any plugin's. Any tool with the "json" binding requires the descriptor.
 *
 * Errors. `open` returns 0 on success; non-zero means the plugin cannot work (its tools are
 * refused), with `*error_out` set to a message or left NULL. `call` returns 0 on success with
 * `*result_out` set to a JSON document; non-zero is a tool error, with `*result_out` either
 * `{"error": "..."}` (a message the model can act on) or NULL. Arguments were validated against
 * the tool's schema before the call, so a plugin may rely on their shape.
 *
 * Threading. The host serialises calls into one plugin: `open`, `call` and `close` are never
 * entered concurrently for the same plugin, so a plugin needs no locking of its own. Calls may
 * come from different threads over the plugin's life. Different plugins may run at once.
 *
 * Limits. A result larger than 1 MB is refused as a tool error, and a call that runs past the
 * manifest's "timeoutMs" kills an isolated plugin's worker (an in-process call cannot be stopped).
 *
 * Lifetime. `close` is called at most once, after the last call, when the host shuts down
 * cleanly. The host never dlcloses a plugin (unloading a Swift image breaks the host's type
 * metadata), so a plugin must not rely on destructors running.
 */
#ifndef TRAILHEAD_TOOL_H
#define TRAILHEAD_TOOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TRAILHEAD_TOOL_ABI_VERSION 1u

typedef struct trailhead_plugin {
    uint32_t    abi_version;      /* TRAILHEAD_TOOL_ABI_VERSION; a mismatch is refused, both versions named */
    const char *name;             /* must equal the manifest's "plugin" */
    const char *manifest_json;    /* the embedded manifest, used by `agent tools register`; may be NULL */
    int  (*open)(const char *config_json, char **error_out);            /* once, before calls; may be NULL */
    int  (*call)(const char *tool_name, const char *arguments_json, char **result_out);
    void (*free_result)(char *);  /* frees what open/call wrote to *error_out / *result_out */
    void (*close)(void);          /* may be NULL */
} trailhead_plugin;

/* The one exported symbol. Returns a pointer to static storage. */
const trailhead_plugin *trailhead_plugin_v1(void);

/* The symbol's name, for hosts that look it up with dlsym. */
#define TRAILHEAD_PLUGIN_SYMBOL "trailhead_plugin_v1"

#ifdef __cplusplus
}
#endif

#endif /* TRAILHEAD_TOOL_H */
