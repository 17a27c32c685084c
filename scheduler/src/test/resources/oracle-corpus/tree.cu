// Two control-flow shapes that kernels use: a tree walk with an explicit stack in local arrays, and a
// switch-driven state machine that counts the fields and quoted characters of CSV lines.

// The sum of the non-negative nodes reachable from the root of an implicit binary tree (children of node k
// at 2k+1 and 2k+2; a negative node ends its branch) and its depth, walked with an explicit stack.
__device__ int tree_sum(const int* nodes, int count, int* maxDepth)
{
    int stackNode[64];
    int stackDepth[64];
    int top = 0;
    int sum = 0;
    stackNode[top] = 0;
    stackDepth[top] = 1;
    top++;
    while (top > 0) {
        top--;
        int at = stackNode[top];
        int depth = stackDepth[top];
        if (at >= count || nodes[at] < 0) {
            continue;
        }
        sum += nodes[at];
        if (depth > *maxDepth) {
            *maxDepth = depth;
        }
        stackNode[top] = 2 * at + 2;
        stackDepth[top] = depth + 1;
        top++;
        stackNode[top] = 2 * at + 1;
        stackDepth[top] = depth + 1;
        top++;
    }
    return sum;
}

extern "C" __global__ void tree_sums(const int* forest, int treeSize, int trees, int* sums, int* depths)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= trees) {
        return;
    }
    int depth = 0;
    sums[t] = tree_sum(forest + t * treeSize, treeSize, &depth);
    depths[t] = depth;
}

extern "C" __global__ void csv_fields(const char* text, const int* lineStart, int lines, int* fields, int* quoted)
{
    int l = blockIdx.x * blockDim.x + threadIdx.x;
    if (l >= lines) {
        return;
    }
    int state = 0;
    int f = 1;
    int q = 0;
    for (int p = lineStart[l]; p < lineStart[l + 1]; p++) {
        char c = text[p];
        switch (state) {
            case 0:
                if (c == '"') {
                    state = 1;
                } else if (c == ',') {
                    f++;
                }
                break;
            case 1:
                if (c == '"') {
                    state = 2;
                } else {
                    q++;
                }
                break;
            default:
                if (c == '"') {
                    q++;
                    state = 1;
                } else {
                    state = 0;
                    if (c == ',') {
                        f++;
                    }
                }
                break;
        }
    }
    fields[l] = f;
    quoted[l] = q;
}
