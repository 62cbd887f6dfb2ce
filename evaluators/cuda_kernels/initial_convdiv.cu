// Initial program for cuda_kernels / ConvDiv: one thread per pooled output
// (8 convolutions, max, accumulate the channel mean), then a per-batch sum.
#include <cuda_runtime.h>

namespace {

constexpr int cIn = 8, cOut = 16, dIn = 16, hIn = 64, wIn = 64;
constexpr int dPool = (dIn - 2) / 2, hPool = (hIn - 2) / 2, wPool = (wIn - 2) / 2;

__global__ void convPool(const float *x, const float *weight, const float *convBias, int batch, double *acc)
{
    const size_t total = size_t(batch) * cOut * dPool * hPool * wPool;
    for (size_t idx = blockIdx.x * size_t(blockDim.x) + threadIdx.x; idx < total; idx += size_t(gridDim.x) * blockDim.x) {
        size_t t = idx;
        const int pw = int(t % wPool); t /= wPool;
        const int ph = int(t % hPool); t /= hPool;
        const int pd = int(t % dPool); t /= dPool;
        const int co = int(t % cOut);
        const int n = int(t / cOut);
        float best = -3.0e38f;
        for (int dz = 0; dz < 2; ++dz)
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx) {
                    float sum = convBias[co];
                    for (int ci = 0; ci < cIn; ++ci)
                        for (int kd = 0; kd < 3; ++kd)
                            for (int kh = 0; kh < 3; ++kh)
                                for (int kw = 0; kw < 3; ++kw)
                                    sum += x[(((size_t(n) * cIn + ci) * dIn + 2 * pd + dz + kd) * hIn + 2 * ph + dy + kh) * wIn
                                             + 2 * pw + dx + kw]
                                           * weight[(((co * cIn + ci) * 3 + kd) * 3 + kh) * 3 + kw];
                    best = fmaxf(best, sum * 0.5f);
                }
        atomicAdd(acc + size_t(n) * cOut + co, double(best));
    }
}

__global__ void finish(const double *acc, const float *bias, float *out, int batch)
{
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= batch)
        return;
    double total = 0.0;
    for (int c = 0; c < cOut; ++c)
        total += acc[n * cOut + c] / double(dPool * hPool * wPool) + bias[c];
    out[n] = float(total);
}

double *scratch = nullptr;
int scratchBatch = 0;

} // namespace

extern "C" int convdiv_forward(const float *x, const float *conv_weight, const float *conv_bias, const float *bias,
                               float *out, int batch)
{
    if (batch > scratchBatch) {
        cudaFree(scratch);
        if (cudaMalloc(&scratch, sizeof(double) * cOut * batch) != cudaSuccess)
            return 1;
        scratchBatch = batch;
    }
    cudaMemsetAsync(scratch, 0, sizeof(double) * cOut * batch);
    convPool<<<4096, 256>>>(x, conv_weight, conv_bias, batch, scratch);
    finish<<<(batch + 127) / 128, 128>>>(scratch, bias, out, batch);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
