// Rotary position embedding (RoPE), as inference code splits it: rope_cache fills the tables of cosines and
// sines of position * inverse frequency with sincosf (the inverse frequencies base^(-2k/dim) come from powf in
// rope_inv_freq), and rope_rotate turns each pair (2k, 2k+1) of a token's features by its angle.

extern "C" __global__ void rope_inv_freq(float* invFreq, int half, float base)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < half) {
        invFreq[k] = powf(base, -(float) k / (float) half);
    }
}

extern "C" __global__ void rope_cache(const float* invFreq, float* cosv, float* sinv, int tokens, int half)
{
    int k = threadIdx.x;
    int token = blockIdx.x;
    if (token < tokens && k < half) {
        float angle = (float) token * invFreq[k];
        float s;
        float c;
        sincosf(angle, &s, &c);
        cosv[token * half + k] = c;
        sinv[token * half + k] = s;
    }
}

extern "C" __global__ void rope_rotate(const float* q, const float* cosv, const float* sinv, float* out,
                                       int tokens, int half)
{
    int k = threadIdx.x;
    int token = blockIdx.x;
    if (token >= tokens || k >= half) {
        return;
    }
    float c = cosv[token * half + k];
    float s = sinv[token * half + k];
    const float* row = q + token * 2 * half;
    float a = row[2 * k];
    float b = row[2 * k + 1];
    out[token * 2 * half + 2 * k] = a * c - b * s;
    out[token * 2 * half + 2 * k + 1] = a * s + b * c;
}
