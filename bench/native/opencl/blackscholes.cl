#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define A1 0.31938153
#define A2 -0.356563782
#define A3 1.781477937
#define A4 -1.821255978
#define A5 1.330274429
#define RSQRT2PI 0.39894228040143267793994605993438

double cnd(double d)
{
    double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
    double c = RSQRT2PI * exp(-0.5 * d * d)
            * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    if (d > 0) {
        c = 1.0 - c;
    }
    return c;
}

__kernel void blackScholes(__global double *call, __global double *put, __global const double *price,
                           __global const double *strike, __global const double *years,
                           double r, double v, int n)
{
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (i < n) {
        double s = price[i];
        double x = strike[i];
        double t = years[i];
        double sqrtT = sqrt(t);
        double d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * sqrtT);
        double d2 = d1 - v * sqrtT;
        double cndD1 = cnd(d1);
        double cndD2 = cnd(d2);
        double expRT = exp(-r * t);
        call[i] = s * cndD1 - x * expRT * cndD2;
        put[i] = x * expRT * (1.0 - cndD2) - s * (1.0 - cndD1);
    }
}
