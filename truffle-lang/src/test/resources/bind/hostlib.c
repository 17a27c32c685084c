/* Host functions with C names for GrBindTest: built at test time with `cc -shared -fPIC -O1`. */
#include <stdbool.h>
#include <stdint.h>

int c_inc_host(int *a, int n, int by) {
    for (int i = 0; i < n; i++) {
        a[i] += by;
    }
    return n;
}

double c_dot(const double *x, const double *y, long n) {
    double s = 0;
    for (long i = 0; i < n; i++) {
        s += x[i] * y[i];
    }
    return s;
}

void c_fill(float *out, int n, float v) {
    for (int i = 0; i < n; i++) {
        out[i] = v + (float) i;
    }
}

uint64_t c_all_ones(void) {
    return UINT64_MAX;
}

unsigned int c_u32(void) {
    return 4000000000u;
}

int8_t c_negate8(int8_t x) {
    return (int8_t) -x;
}

bool c_is_even(int x) {
    return x % 2 == 0;
}

/* Every scalar type in one call: a mix of integer and floating registers of the C calling convention. */
double c_mixed(int8_t a, int16_t b, int32_t c, int64_t d, uint8_t e, uint16_t f, uint32_t g, uint64_t h,
               float i, double j, bool k) {
    return a + b + c + (double) d + e + f + g + (double) h + i + j + (k ? 1000 : 0);
}

/* Sums n ints starting at p (an address inside an array), writing the running sums to out. */
void c_prefix(const int *p, int *out, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += p[i];
        out[i] = s;
    }
}
