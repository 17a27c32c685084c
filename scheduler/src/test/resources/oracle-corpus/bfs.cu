// One level of breadth-first search over a CSR graph with frontier masks: bfs_expand visits the neighbours of
// every frontier vertex and marks the unvisited ones for the next frontier with their level; bfs_advance
// makes the marked vertices the new frontier, marks them visited, and counts them (integer atomics).
// Several frontier vertices may mark the same neighbour, but they all write the same values.

extern "C" __global__ void bfs_expand(int vertices, const int* rowStart, const int* adjacency,
                                      int* frontier, const int* visited, int* level, int* next)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices && frontier[v]) {
        frontier[v] = 0;
        int nextLevel = level[v] + 1;
        for (int e = rowStart[v]; e < rowStart[v + 1]; e++) {
            int u = adjacency[e];
            if (!visited[u]) {
                level[u] = nextLevel;
                next[u] = 1;
            }
        }
    }
}

extern "C" __global__ void bfs_advance(int vertices, int* frontier, int* visited, int* next, int* count)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < vertices && next[v]) {
        frontier[v] = 1;
        visited[v] = 1;
        next[v] = 0;
        atomicAdd(count, 1);
    }
}
