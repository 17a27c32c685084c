// European option prices by the Black-Scholes formula, one option per thread (grid-stride), with the
// cumulative normal distribution from the Abramowitz-Stegun polynomial (26.2.17), as GPU pricing codes do.

__device__ inline float bs_cnd(float d)
{
    const float a1 = 0.319381530f;
    const float a2 = -0.356563782f;
    const float a3 = 1.781477937f;
    const float a4 = -1.821255978f;
    const float a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040143267794f;
    float k = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    float c = inv_sqrt_2pi * expf(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - c : c;
}

extern "C" __global__ void black_scholes(float* call, float* put, const float* spot, const float* strike,
                                         const float* years, float riskFree, float volatility, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float S = spot[i];
        float X = strike[i];
        float T = years[i];
        float sqrtT = sqrtf(T);
        float d1 = (logf(S / X) + (riskFree + 0.5f * volatility * volatility) * T) / (volatility * sqrtT);
        float d2 = d1 - volatility * sqrtT;
        float cndD1 = bs_cnd(d1);
        float cndD2 = bs_cnd(d2);
        float discount = expf(-riskFree * T);
        call[i] = S * cndD1 - X * discount * cndD2;
        put[i] = X * discount * (1.0f - cndD2) - S * (1.0f - cndD1);
    }
}
