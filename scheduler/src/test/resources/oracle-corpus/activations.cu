// Element-wise activation functions of neural networks, as inference kernels write them with the standard
// math library: sigmoid, SiLU, GELU (the erf form and the tanh approximation), softplus, and ELU. One output
// array per function.

extern "C" __global__ void activations(const float* x, float* sigmoid, float* silu, float* geluErf,
                                       float* geluTanh, float* softplus, float* elu, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float v = x[i];
        float s = 1.0f / (1.0f + expf(-v));
        sigmoid[i] = s;
        silu[i] = v * s;
        geluErf[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f));
        float inner = 0.7978845608f * (v + 0.044715f * v * v * v);
        geluTanh[i] = 0.5f * v * (1.0f + tanhf(inner));
        softplus[i] = v > 20.0f ? v : log1pf(expf(v));
        elu[i] = v > 0.0f ? v : expm1f(v);
    }
}
