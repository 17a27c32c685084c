#!/bin/sh
# Rebuilds the bindkernel fixtures from increment.cu (run in this folder). Checked in: the outputs of nvcc 13.0
# (V13.0.88); tests read them without a CUDA toolkit, and CubinImageTest rebuilds them where nvcc is installed.
set -e
nvcc -ptx -arch=compute_75 -o increment.ptx increment.cu
nvcc -cubin -arch=sm_75 -o increment.cubin increment.cu
nvcc -cubin -arch=sm_90 -o increment_sm90.cubin increment.cu
nvcc -fatbin -arch=sm_75 -o increment.fatbin increment.cu
