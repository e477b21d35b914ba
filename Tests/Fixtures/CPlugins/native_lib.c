/* A plain C library that knows nothing of Trailhead; manifests bind its functions natively.
 *     gcc -shared -fPIC -o libtripmath.so native_lib.c */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double trip_cost_usd(double distanceKm, int32_t travellers) {
    return distanceKm * 0.12 * travellers + 15.0 * travellers;
}

/* Allocates; the caller releases it with greeting_free. */
char *greeting(const char *name, int32_t times) {
    size_t size = strlen(name) + 32;
    char *text = malloc(size);
    snprintf(text, size, "hello, %s x%d", name, times);
    return text;
}

void greeting_free(char *text) { free(text); }

const char *library_version(void) { return "tripmath 1.2"; }

bool is_even(int64_t n) { return n % 2 == 0; }

uint32_t popcount32(uint32_t x) { return (uint32_t)__builtin_popcount(x); }

float half(float x) { return x / 2.0f; }

int64_t add64(int64_t a, int64_t b) { return a + b; }

uint64_t shifted(uint64_t x, uint32_t bits) { return x << bits; }

int32_t negate(int32_t x) { return -x; }

bool both(bool a, bool b) { return a && b; }

static int counter = 0;
void bump(void) { counter += 1; }
int32_t bumps(void) { return counter; }

/* Returns its argument: the trivial tool of the benchmark's native row. */
const char *echo_text(const char *text) { return text; }
