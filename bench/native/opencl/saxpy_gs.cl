#pragma OPENCL FP_CONTRACT OFF
__kernel void saxpy_gs(__global float *y, __global const float *x, float a, int n)
{
    for (int i = get_group_id(0) * get_local_size(0) + get_local_id(0); i < n; i += get_local_size(0) * get_num_groups(0)) {
        y[i] = a * x[i] + y[i];
    }
}
