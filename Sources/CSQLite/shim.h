#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast of -1 to a destructor pointer, a macro Swift cannot import:
/// binding text or blobs with it makes SQLite copy the bytes before the call returns.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
