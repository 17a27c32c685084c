#pragma OPENCL FP_CONTRACT OFF
__kernel void saxpy(__global float *y, __global const float *x, float a, int n)
{
    int i = get_group_id(0) * get_local_size(0) + get_local_id(0);
    if (i < n) {
        y[i] = a * x[i] + y[i];
    }
}
