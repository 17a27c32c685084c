// C++ host functions for GrBindTest (mangled names): built at test time with `c++ -shared -fPIC -O1`.
namespace aa {
namespace bb {

int cxx_inc_host(int *a, int n, int by) {
    for (int i = 0; i < n; i++) {
        a[i] += by;
    }
    return n;
}

// Two pointers of one type: the second is written as a substitution (S1_, after the namespaces' S_ and S0_).
void add_into(int *dst, int *src, int n) {
    for (int i = 0; i < n; i++) {
        dst[i] += src[i];
    }
}

float dot(const float *x, const float *y, long n) {
    float s = 0;
    for (long i = 0; i < n; i++) {
        s += x[i] * y[i];
    }
    return s;
}

}  // namespace bb
}  // namespace aa

// Not in a namespace; const double* three times (PKd, then S0_ twice), a long long for sint64.
double top3(const double *a, const double *b, const double *c, long long n) {
    double s = 0;
    for (long long i = 0; i < n; i++) {
        s += a[i] + b[i] + c[i];
    }
    return s;
}

// Overloads: the signature's types pick one.
int over(int x) { return x + 1; }
int over(double x) { return (int) (x * 2); }
