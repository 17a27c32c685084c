// The assignment step of k-means: every point finds its nearest centroid (squared distance, the lower index
// on a tie), the centroids staged in shared memory; the sizes of the clusters are counted with atomics.

struct KmPoint {
    float x;
    float y;
    float z;
};

extern "C" __global__ void kmeans_assign(const KmPoint* points, const KmPoint* centroids, int* membership,
                                         int* clusterSizes, int n, int k)
{
    extern __shared__ KmPoint cs[];
    for (int c = threadIdx.x; c < k; c += blockDim.x) {
        cs[c] = centroids[c];
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    KmPoint p = points[i];
    int best = 0;
    float bestD = 3.4e38f;
    for (int c = 0; c < k; c++) {
        float dx = p.x - cs[c].x;
        float dy = p.y - cs[c].y;
        float dz = p.z - cs[c].z;
        float d = dx * dx + dy * dy + dz * dz;
        if (d < bestD) {
            bestD = d;
            best = c;
        }
    }
    membership[i] = best;
    atomicAdd(&clusterSizes[best], 1);
}
