// All-pairs n-body accelerations, tiled through shared memory: each block stages blockDim.x bodies at a time
// and every thread accumulates their pull on its own body. Positions and masses as float4 (x, y, z, m).

extern "C" __global__ void nbody_accel(const float4* bodies, float3* accel, int n, float softening2)
{
    extern __shared__ float4 tile[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? bodies[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float ax = 0.0f;
    float ay = 0.0f;
    float az = 0.0f;
    for (int start = 0; start < n; start += blockDim.x) {
        int j = start + threadIdx.x;
        tile[threadIdx.x] = j < n ? bodies[j] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        __syncthreads();
        for (int k = 0; k < blockDim.x; k++) {
            float4 other = tile[k];
            float dx = other.x - me.x;
            float dy = other.y - me.y;
            float dz = other.z - me.z;
            float d2 = dx * dx + dy * dy + dz * dz + softening2;
            float d = sqrtf(d2);
            float s = other.w / (d2 * d);
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        __syncthreads();
    }
    if (i < n) {
        accel[i] = make_float3(ax, ay, az);
    }
}
