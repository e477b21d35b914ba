/* A shared library that is not a Trailhead plugin: it exports no trailhead_plugin_v1. */
int some_other_function(int x) { return x + 1; }
