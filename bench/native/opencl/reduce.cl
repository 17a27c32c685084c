#pragma OPENCL FP_CONTRACT OFF
__kernel void reduce(__global const float *in, __global float *partial, int n, __local float *sdata)
{
    unsigned int tid = get_local_id(0);
    unsigned int i = get_group_id(0) * (get_local_size(0) * 2) + get_local_id(0);

    float sum = (i < n) ? in[i] : 0.0f;
    if (i + get_local_size(0) < n) {
        sum += in[i + get_local_size(0)];
    }
    sdata[tid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (unsigned int s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (tid < s) {
            sdata[tid] += sdata[tid + s];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (tid == 0) {
        partial[get_group_id(0)] = sdata[0];
    }
}
