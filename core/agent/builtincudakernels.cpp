#include "builtincudakernels.h"

#include "builtinrandom.h"

#include <algorithm>

namespace dreamrsi {

namespace {

const char *const layerNormTemplate = R"CU(@HEADER@
// LayerNorm: written by the built-in agent. Two passes: per-row sums and sums
// of squares (double accumulation, warp-shuffle then shared-memory reduction,
// one double atomic per block), then the affine normalisation. kVec4 reads
// and writes four floats at a time when the row length allows it.
#include <cuda_runtime.h>

namespace {

constexpr int kBlock = @BLOCK@;
constexpr int kGrid = @GRID@;
constexpr bool kVec4 = @VEC4@;

__device__ double warpSum(double v)
{
    for (int offset = 16; offset > 0; offset >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void __launch_bounds__(kBlock) rowStats(const float *x, size_t cols, double *sum, double *sumSq)
{
    const float *row = x + blockIdx.y * cols;
    double s = 0.0, q = 0.0;
    const size_t stride = size_t(gridDim.x) * kBlock;
    const size_t first = blockIdx.x * size_t(kBlock) + threadIdx.x;
    if (kVec4 && cols % 4 == 0) {
        const float4 *row4 = reinterpret_cast<const float4 *>(row);
        for (size_t i = first; i < cols / 4; i += stride) {
            const float4 v = row4[i];
            s += double(v.x) + double(v.y) + double(v.z) + double(v.w);
            q += double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z + double(v.w) * v.w;
        }
    } else {
        for (size_t i = first; i < cols; i += stride) {
            const double v = row[i];
            s += v;
            q += v * v;
        }
    }
    s = warpSum(s);
    q = warpSum(q);
    __shared__ double ps[kBlock / 32], pq[kBlock / 32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (lane == 0) {
        ps[warp] = s;
        pq[warp] = q;
    }
    __syncthreads();
    if (warp == 0) {
        s = lane < kBlock / 32 ? ps[lane] : 0.0;
        q = lane < kBlock / 32 ? pq[lane] : 0.0;
        s = warpSum(s);
        q = warpSum(q);
        if (lane == 0) {
            atomicAdd(sum + blockIdx.y, s);
            atomicAdd(sumSq + blockIdx.y, q);
        }
    }
}

__global__ void __launch_bounds__(kBlock) normalise(const float *x, const float *w, const float *b, float *y,
                                                    size_t cols, const double *sum, const double *sumSq)
{
    const size_t rowIndex = blockIdx.y;
    const double mean = sum[rowIndex] / double(cols);
    const double var = sumSq[rowIndex] / double(cols) - mean * mean;
    const float m = float(mean);
    const float inv = float(1.0 / sqrt(var + 1e-5));
    const float *row = x + rowIndex * cols;
    float *out = y + rowIndex * cols;
    const size_t stride = size_t(gridDim.x) * kBlock;
    const size_t first = blockIdx.x * size_t(kBlock) + threadIdx.x;
    if (kVec4 && cols % 4 == 0) {
        const float4 *row4 = reinterpret_cast<const float4 *>(row);
        const float4 *w4 = reinterpret_cast<const float4 *>(w);
        const float4 *b4 = reinterpret_cast<const float4 *>(b);
        float4 *out4 = reinterpret_cast<float4 *>(out);
        for (size_t i = first; i < cols / 4; i += stride) {
            const float4 v = row4[i], ww = w4[i], bb = b4[i];
            out4[i] = make_float4((v.x - m) * inv * ww.x + bb.x, (v.y - m) * inv * ww.y + bb.y,
                                  (v.z - m) * inv * ww.z + bb.z, (v.w - m) * inv * ww.w + bb.w);
        }
    } else {
        for (size_t i = first; i < cols; i += stride)
            out[i] = (row[i] - m) * inv * w[i] + b[i];
    }
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
    const dim3 grid(kGrid, unsigned(rows));
    rowStats<<<grid, kBlock>>>(x, size_t(cols), scratch, scratch + rows);
    normalise<<<grid, kBlock>>>(x, weight, bias, y, size_t(cols), scratch, scratch + rows);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
)CU";

const char *const convDivTemplate = R"CU(@HEADER@
// ConvDiv: written by the built-in agent. One thread per pooled output: the
// eight convolutions of its 2×2×2 window, their maximum halved, accumulated
// per (batch, channel) with a double atomic; then one thread per batch
// element adds the channel means and biases. kSharedWeights stages the
// 16×8×27 filter in shared memory once per block.
#include <cuda_runtime.h>

namespace {

constexpr int kBlock = @BLOCK@;
constexpr int kGrid = @GRID@;
constexpr bool kSharedWeights = @SHARED@;
constexpr int cIn = 8, cOut = 16, dIn = 16, hIn = 64, wIn = 64;
constexpr int dPool = (dIn - 2) / 2, hPool = (hIn - 2) / 2, wPool = (wIn - 2) / 2;
constexpr int kWeights = cOut * cIn * 27;

__global__ void __launch_bounds__(kBlock) convPool(const float *x, const float *weight, const float *convBias,
                                                   int batch, double *acc)
{
    __shared__ float staged[kSharedWeights ? kWeights : 1];
    if (kSharedWeights) {
        for (int i = threadIdx.x; i < kWeights; i += kBlock)
            staged[i] = weight[i];
        __syncthreads();
    }
    const float *wt = kSharedWeights ? staged : weight;
    const size_t total = size_t(batch) * cOut * dPool * hPool * wPool;
    for (size_t idx = blockIdx.x * size_t(kBlock) + threadIdx.x; idx < total; idx += size_t(gridDim.x) * kBlock) {
        size_t t = idx;
        const int pw = int(t % wPool);
        t /= wPool;
        const int ph = int(t % hPool);
        t /= hPool;
        const int pd = int(t % dPool);
        t /= dPool;
        const int co = int(t % cOut);
        const int n = int(t / cOut);
        float best = -3.0e38f;
        for (int dz = 0; dz < 2; ++dz)
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx) {
                    float sum = convBias[co];
                    for (int ci = 0; ci < cIn; ++ci) {
                        const float *base = x + ((size_t(n) * cIn + ci) * dIn + 2 * pd + dz) * hIn * wIn
                                            + size_t(2 * ph + dy) * wIn + 2 * pw + dx;
                        const float *k = wt + (co * cIn + ci) * 27;
                        for (int kd = 0; kd < 3; ++kd)
                            for (int kh = 0; kh < 3; ++kh)
                                for (int kw = 0; kw < 3; ++kw)
                                    sum += base[(kd * hIn + kh) * wIn + kw] * k[(kd * 3 + kh) * 3 + kw];
                    }
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
    convPool<<<kGrid, kBlock>>>(x, conv_weight, conv_bias, batch, scratch);
    finish<<<(batch + 127) / 128, 128>>>(scratch, bias, out, batch);
    return cudaGetLastError() == cudaSuccess ? 0 : 2;
}
)CU";

const QList<int> blocks{128, 256, 512, 1024};

BuiltinParams fresh(const QString &direction, const QString &kernel)
{
    BuiltinParams p;
    p.set(QStringLiteral("kernel"), kernel);
    const bool conv = kernel == QLatin1String("convdiv");
    p.setInteger(QStringLiteral("block"), 256);
    p.setInteger(QStringLiteral("grid"), conv ? 4096 : 128);
    p.setInteger(QStringLiteral("vec4"), 0);
    p.setInteger(QStringLiteral("shared"), 0);
    if (direction == QLatin1String("wide-blocks")) {
        p.setInteger(QStringLiteral("block"), 512);
        p.setInteger(QStringLiteral("grid"), conv ? 2048 : 64);
    } else if (direction == QLatin1String("vector-access")) {
        p.setInteger(QStringLiteral("vec4"), 1);
        p.setInteger(QStringLiteral("shared"), 1);
    } else if (direction == QLatin1String("more-blocks")) {
        p.setInteger(QStringLiteral("block"), 128);
        p.setInteger(QStringLiteral("grid"), conv ? 16384 : 512);
    }
    return p;
}

} // namespace

QString BuiltinCudaKernels::task() const
{
    return QStringLiteral("cuda_kernels");
}

QStringList BuiltinCudaKernels::directions() const
{
    return {QStringLiteral("vector-access"), QStringLiteral("wide-blocks"), QStringLiteral("more-blocks")};
}

QString BuiltinCudaKernels::describe(const QString &direction) const
{
    if (direction == QLatin1String("wide-blocks"))
        return QStringLiteral("fewer, wider blocks (512 threads) to cut atomics and launch overhead");
    if (direction == QLatin1String("more-blocks"))
        return QStringLiteral("more, smaller blocks (128 threads) to fill every multiprocessor");
    return QStringLiteral("wider memory accesses (float4 loads and stores) and a staged filter in shared memory");
}

BuiltinDraft BuiltinCudaKernels::draft(const BuiltinStep &step, BuiltinRandom &random) const
{
    BuiltinDraft d;
    BuiltinParams &p = d.params;
    const QString kernel = step.context->parentProgram.contains(QLatin1String("convdiv_forward")) ? QStringLiteral("convdiv")
                                                                                                 : QStringLiteral("layernorm");
    if (step.parentParams && step.parentParams->text(QStringLiteral("task")) == task()
        && step.parentParams->text(QStringLiteral("kernel")) == kernel) {
        p = *step.parentParams;
        if (parentFailed(step) && !step.context->parentError.contains(QLatin1String("GPU"))) {
            p = fresh(QStringLiteral("baseline"), kernel);
            d.notes << QStringLiteral("The parent failed (%1): back to the starting kernel's launch shape.")
                           .arg(step.context->parentError.left(200));
        } else {
            const int which = random.range(0, 2);
            if (which == 0)
                p.setInteger(QStringLiteral("block"), blocks.at(random.range(0, int(blocks.size()) - 1)));
            else if (which == 1)
                p.setInteger(QStringLiteral("grid"), std::clamp(int(random.jitter(p.integer(QStringLiteral("grid"), 128), 4.0)), 16, 65535));
            else
                p.setInteger(kernel == QLatin1String("convdiv") ? QStringLiteral("shared") : QStringLiteral("vec4"),
                             1 - p.integer(kernel == QLatin1String("convdiv") ? QStringLiteral("shared") : QStringLiteral("vec4"), 0));
            d.notes << QStringLiteral("Starting from the parent's %1 kernel (%2), this attempt moves one launch or "
                                      "access parameter.")
                           .arg(kernel, step.context->parentScore ? QStringLiteral("score %1").arg(*step.context->parentScore, 0, 'g', 6)
                                                                  : QStringLiteral("not timed: %1").arg(step.context->parentError.left(120)));
        }
    } else {
        p = fresh(step.direction, kernel);
        d.notes << QStringLiteral("A %1 variant for this branch: %2.").arg(kernel, describe(step.direction));
    }
    stamp(p, step, random);
    d.program = QString::fromUtf8(kernel == QLatin1String("convdiv") ? convDivTemplate : layerNormTemplate);
    d.program.replace(QStringLiteral("@HEADER@"), p.header(QStringLiteral("//")));
    d.program.replace(QStringLiteral("@BLOCK@"), QString::number(p.integer(QStringLiteral("block"), 256)));
    d.program.replace(QStringLiteral("@GRID@"), QString::number(p.integer(QStringLiteral("grid"), 128)));
    d.program.replace(QStringLiteral("@VEC4@"), p.integer(QStringLiteral("vec4"), 0) ? QStringLiteral("true") : QStringLiteral("false"));
    d.program.replace(QStringLiteral("@SHARED@"), p.integer(QStringLiteral("shared"), 0) ? QStringLiteral("true") : QStringLiteral("false"));
    return d;
}

} // namespace dreamrsi
