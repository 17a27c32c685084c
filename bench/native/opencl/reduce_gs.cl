#pragma OPENCL FP_CONTRACT OFF
__kernel void reduce_gs(__global const float *in, __global float *partial, int n, __local float *sdata)
{
    unsigned int tid = get_local_id(0);
    float sum = 0.0f;
    for (int i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n; i += get_local_size(0) * get_num_groups(0)) {
        sum += in[i];
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
