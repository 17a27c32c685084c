#!/bin/sh
# Rebuilds the bindkernel fixtures from increment.cu (run in this folder). Checked in: the outputs of nvcc 13.0
# (V13.0.88); tests read them without a CUDA toolkit, and CubinImageTest and FatbinaryTest rebuild them where nvcc
# is installed.
set -e
nvcc -ptx -arch=compute_75 -o increment.ptx increment.cu
nvcc -ptx -arch=compute_90 -o increment_sm90.ptx increment.cu
nvcc -cubin -arch=sm_75 -o increment.cubin increment.cu
nvcc -cubin -arch=sm_90 -o increment_sm90.cubin increment.cu
# Fatbinaries: nvcc compresses PTX entries with zstd by default; -Xfatbin -compress-all compresses cubins too;
# -compress-mode=speed uses LZ4 instead.
nvcc -fatbin -arch=sm_75 -o increment.fatbin increment.cu
nvcc -fatbin -arch=compute_75 -o increment_ptx.fatbin increment.cu
nvcc -fatbin -arch=sm_75 -Xfatbin -compress-all -o increment_all.fatbin increment.cu
nvcc -fatbin -arch=sm_75 -Xfatbin -compress-all -compress-mode=speed -o increment_speed.fatbin increment.cu
nvcc -fatbin -gencode arch=compute_75,code=compute_75 -gencode arch=compute_90,code=compute_90 \
    -o increment_multi.fatbin increment.cu
nvcc -fatbin -gencode arch=compute_75,code=sm_75 -Xfatbin -compress-all -o increment_sm75only.fatbin increment.cu
