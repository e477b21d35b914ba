#include <libical/ical.h>

/* libical's `icalerrno` is a macro over a thread-local; Swift cannot import it. */
static inline icalerrorenum trailhead_icalerrno(void) { return *icalerrno_return(); }

/* Resets the error state before a parse, so a stale error is not blamed on the next file. */
static inline void trailhead_icalerrno_clear(void) { *icalerrno_return() = ICAL_NO_ERROR; }
