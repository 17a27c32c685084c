// Double-precision math of the kind scientific kernels use, each function once per element, grouped by the
// accuracy CUDA documents for it: exp, log, log1p, sin, cos, cbrt, rsqrt (1 ulp) and sqrt (exact); tan, atan2,
// pow, hypot, erf (2 ulp); erfc (4 ulp).

extern "C" __global__ void dmath(const double* x, const double* y, double* tight, double* loose, double* erfcs,
                                 int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    double a = x[i];
    double b = y[i];
    double* t = tight + 8 * i;
    t[0] = exp(a);
    t[1] = log(fabs(a) + 1e-3);
    t[2] = log1p(fabs(b));
    t[3] = sin(a * 10.0);
    t[4] = cos(a * 10.0);
    t[5] = cbrt(a * b);
    t[6] = rsqrt(fabs(b) + 0.25);
    t[7] = sqrt(fabs(a * b));
    double* l = loose + 5 * i;
    l[0] = tan(a);
    l[1] = atan2(a, b);
    l[2] = pow(fabs(a) + 0.5, b);
    l[3] = hypot(a, b);
    l[4] = erf(a);
    erfcs[i] = erfc(a);
}
