// Initial program for cuda_kernels / LayerNorm: two passes (row statistics
// with block reductions and double atomics, then the normalisation).
#include <cuda_runtime.h>

namespace {

__global__ void rowStats(const float *x, size_t cols, double *sum, double *sumSq)
{
    const size_t row = blockIdx.y;
    double s = 0.0, q = 0.0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < cols; i += size_t(gridDim.x) * blockDim.x) {
        const double v = x[row * cols + i];
        s += v;
        q += v * v;
    }
    __shared__ double ps[256], pq[256];
    ps[threadIdx.x] = s;
    pq[threadIdx.x] = q;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half >>= 1) {
        if (int(threadIdx.x) < half) {
            ps[threadIdx.x] += ps[threadIdx.x + half];
            pq[threadIdx.x] += pq[threadIdx.x + half];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        atomicAdd(sum + row, ps[0]);
        atomicAdd(sumSq + row, pq[0]);
    }
}

__global__ void normalise(const float *x, const float *w, const float *b, float *y, size_t cols, const double *sum,
                          const double *sumSq)
{
    const size_t row = blockIdx.y;
    const double mean = sum[row] / double(cols);
    const double var = sumSq[row] / double(cols) - mean * mean;
    const float m = float(mean);
    const float inv = float(1.0 / sqrt(var + 1e-5));
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < cols; i += size_t(gridDim.x) * blockDim.x)
        y[row * cols + i] = (x[row * cols + i] - m) * inv * w[i] + b[i];
}

double *scratch = nullptr;
int scratchRows = 0;

} // namespace

extern "C" int layernorm_forward(const float *x, const float *weight, const float *bias, float *y, int rows, int cols)
{
    if (rows > scratchRows) {
        cudaFree(scratch);
        if (cudaMalloc(&scratch, sizeof(double) * 2 * rows) != cudaSuccess)
            return 1;
        scratchRows = rows;
    }
    cudaMemsetAsync(scratch, 0, sizeof(double) * 2 * rows);
    const dim3 grid(128, unsigned(rows));
    rowStats<<<grid, 256>>>(x, size_t(cols), scratch, scratch + rows);
    normalise<<<grid, 256>>>(x, weight, bias, y, size_t(cols), scratch, scratch + rows);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
