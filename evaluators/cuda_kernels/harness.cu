// Dream-RSI CUDA kernel harness (KernelBench protocol). Compiled together with
// the candidate's source; defines the reference, checks the candidate against
// it on fresh seeded inputs and times it with CUDA events, flushing L2 before
// every timed call. Prints one JSON object on its last stdout line.
//
//   harness KERNEL TRIALS WARMUP TIMED     (KERNEL: layernorm | convdiv)
//
// Entry points the candidate must define (device pointers, default stream,
// return 0 on success):
//   extern "C" int layernorm_forward(const float *x, const float *weight,
//       const float *bias, float *y, int rows, int cols);
//       y[r, :] = (x[r, :] - mean) / sqrt(var + 1e-5) * weight + bias,
//       mean and biased variance over the cols of row r.
//   extern "C" int convdiv_forward(const float *x, const float *conv_weight,
//       const float *conv_bias, const float *bias, float *out, int batch);
//       x: [batch, 8, 16, 64, 64]; Conv3d(8 -> 16, k = 3, no padding) with
//       conv_weight [16, 8, 3, 3, 3] and conv_bias [16]; divide by 2;
//       MaxPool3d(2); mean over (depth, height, width); + bias[c]; sum over the
//       16 channels: out [batch].
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" int layernorm_forward(const float *x, const float *weight, const float *bias, float *y, int rows, int cols)
    __attribute__((weak));
extern "C" int convdiv_forward(const float *x, const float *conv_weight, const float *conv_bias, const float *bias,
                               float *out, int batch) __attribute__((weak));

namespace {

std::string jsonEscape(const char *text)
{
    std::string out;
    for (const char *c = text; *c; ++c) {
        if (*c == '"' || *c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(*c) < 0x20)
            out += ' ';
        else
            out += *c;
    }
    return out;
}

[[noreturn]] void finish(const char *status, const std::string &message)
{
    std::printf("{\"status\":\"%s\",\"message\":\"%s\"}\n", status, jsonEscape(message.c_str()).c_str());
    std::fflush(stdout);
    std::exit(status[0] == 'n' ? 3 : 1);
}

void check(cudaError_t error, const char *what, const char *status = "cuda_error")
{
    if (error != cudaSuccess)
        finish(status, std::string(what) + ": " + cudaGetErrorString(error));
}

// ---- seeded inputs -------------------------------------------------------

__device__ unsigned long long mix64(unsigned long long x)
{
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/// out[i] = offset + scale * N(0, 1) (uniform in [-scale, scale] when uniform != 0).
__global__ void fillKernel(float *out, size_t count, unsigned long long seed, float offset, float scale, int uniform)
{
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < count; i += size_t(gridDim.x) * blockDim.x) {
        const unsigned long long h = mix64(seed * 0x100000001B3ULL + i);
        const double u1 = (double((h >> 11) & ((1ULL << 26) - 1)) + 1.0) / double(1ULL << 26);
        const double u2 = double(h >> 38) / double(1ULL << 26);
        const double value = uniform ? (2.0 * u2 - 1.0) : sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
        out[i] = offset + scale * float(value);
    }
}

void fill(float *out, size_t count, unsigned long long seed, float offset, float scale, bool uniform = false)
{
    fillKernel<<<1024, 256>>>(out, count, seed, offset, scale, uniform ? 1 : 0);
    check(cudaGetLastError(), "input generation");
}

// ---- references ----------------------------------------------------------

__global__ void rowSumKernel(const float *x, size_t cols, const double *mean, double *acc)
{
    const size_t row = blockIdx.y;
    const float *r = x + row * cols;
    const double m = mean ? mean[row] : 0.0;
    double local = 0.0;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < cols; i += size_t(gridDim.x) * blockDim.x) {
        const double v = double(r[i]) - m;
        local += mean ? v * v : v;
    }
    __shared__ double part[256];
    part[threadIdx.x] = local;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (int(threadIdx.x) < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(acc + row, part[0]);
}

__global__ void divideKernel(double *values, int count, double by)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        values[i] /= by;
}

__global__ void normalizeKernel(const float *x, const float *w, const float *b, float *y, size_t cols,
                                const double *mean, const double *var)
{
    const size_t row = blockIdx.y;
    const double m = mean[row];
    const double inv = 1.0 / sqrt(var[row] + 1e-5);
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < cols; i += size_t(gridDim.x) * blockDim.x)
        y[row * cols + i] = float((double(x[row * cols + i]) - m) * inv * double(w[i]) + double(b[i]));
}

void referenceLayernorm(const float *x, const float *w, const float *b, float *y, int rows, int cols, double *scratch)
{
    double *mean = scratch;
    double *var = scratch + rows;
    check(cudaMemset(scratch, 0, sizeof(double) * 2 * rows), "reference");
    const dim3 grid(256, unsigned(rows));
    rowSumKernel<<<grid, 256>>>(x, size_t(cols), nullptr, mean);
    divideKernel<<<(rows + 255) / 256, 256>>>(mean, rows, double(cols));
    rowSumKernel<<<grid, 256>>>(x, size_t(cols), mean, var);
    divideKernel<<<(rows + 255) / 256, 256>>>(var, rows, double(cols));
    normalizeKernel<<<grid, 256>>>(x, w, b, y, size_t(cols), mean, var);
    check(cudaGetLastError(), "reference layernorm");
}

constexpr int cIn = 8, cOut = 16, dIn = 16, hIn = 64, wIn = 64, kSize = 3;
constexpr int dConv = dIn - 2, hConv = hIn - 2, wConv = wIn - 2;
constexpr int dPool = dConv / 2, hPool = hConv / 2, wPool = wConv / 2;

__global__ void convPoolKernel(const float *x, const float *weight, const float *convBias, int batch, double *acc)
{
    const size_t total = size_t(batch) * cOut * dPool * hPool * wPool;
    for (size_t idx = blockIdx.x * size_t(blockDim.x) + threadIdx.x; idx < total; idx += size_t(gridDim.x) * blockDim.x) {
        size_t t = idx;
        const int pw = int(t % wPool); t /= wPool;
        const int ph = int(t % hPool); t /= hPool;
        const int pd = int(t % dPool); t /= dPool;
        const int co = int(t % cOut);
        const int n = int(t / cOut);
        double best = -1e300;
        for (int dz = 0; dz < 2; ++dz)
            for (int dy = 0; dy < 2; ++dy)
                for (int dx = 0; dx < 2; ++dx) {
                    const int od = 2 * pd + dz, oh = 2 * ph + dy, ow = 2 * pw + dx;
                    double sum = convBias[co];
                    for (int ci = 0; ci < cIn; ++ci)
                        for (int kd = 0; kd < kSize; ++kd)
                            for (int kh = 0; kh < kSize; ++kh)
                                for (int kw = 0; kw < kSize; ++kw) {
                                    const size_t xi = ((((size_t(n) * cIn + ci) * dIn + od + kd) * hIn + oh + kh) * wIn) + ow + kw;
                                    const size_t wi = (((size_t(co) * cIn + ci) * kSize + kd) * kSize + kh) * kSize + kw;
                                    sum += double(x[xi]) * double(weight[wi]);
                                }
                    best = fmax(best, sum / 2.0);
                }
        atomicAdd(acc + size_t(n) * cOut + co, best);
    }
}

__global__ void convFinishKernel(const double *acc, const float *bias, float *out, int batch)
{
    const int n = blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= batch)
        return;
    double total = 0.0;
    for (int c = 0; c < cOut; ++c)
        total += acc[n * cOut + c] / double(dPool * hPool * wPool) + double(bias[c]);
    out[n] = float(total);
}

void referenceConvdiv(const float *x, const float *weight, const float *convBias, const float *bias, float *out,
                      int batch, double *scratch)
{
    check(cudaMemset(scratch, 0, sizeof(double) * batch * cOut), "reference");
    convPoolKernel<<<4096, 256>>>(x, weight, convBias, batch, scratch);
    convFinishKernel<<<(batch + 127) / 128, 128>>>(scratch, bias, out, batch);
    check(cudaGetLastError(), "reference convdiv");
}

// ---- the protocol --------------------------------------------------------

struct Buffers
{
    std::vector<float *> inputs;
    std::vector<size_t> sizes;
    float *out = nullptr;
    float *ref = nullptr;
    size_t outSize = 0;
    double *scratch = nullptr;
};

float *deviceAlloc(size_t count)
{
    float *p = nullptr;
    check(cudaMalloc(&p, count * sizeof(float)), "cudaMalloc", "resource");
    return p;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 5)
        finish("usage", "harness KERNEL TRIALS WARMUP TIMED");
    const std::string kernel = argv[1];
    const int trials = std::atoi(argv[2]);
    const int warmup = std::atoi(argv[3]);
    const int timed = std::atoi(argv[4]);
    const bool isLayernorm = kernel == "layernorm";
    if (!isLayernorm && kernel != "convdiv")
        finish("usage", "unknown kernel " + kernel);
    if ((isLayernorm && !layernorm_forward) || (!isLayernorm && !convdiv_forward))
        finish("missing_entry", isLayernorm ? "the candidate does not define extern \"C\" layernorm_forward"
                                            : "the candidate does not define extern \"C\" convdiv_forward");

    int devices = 0;
    const cudaError_t probe = cudaGetDeviceCount(&devices);
    if (probe != cudaSuccess || devices == 0)
        finish("no_gpu", std::string("no CUDA GPU is available: ") +
                             (probe != cudaSuccess ? cudaGetErrorString(probe) : "0 devices"));
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");

    // Shapes.
    const int rows = 16, cols = 64 * 256 * 256;
    const int batch = 128;
    Buffers b;
    if (isLayernorm) {
        b.sizes = {size_t(rows) * cols, size_t(cols), size_t(cols)};
        b.outSize = size_t(rows) * cols;
    } else {
        b.sizes = {size_t(batch) * cIn * dIn * hIn * wIn, size_t(cOut) * cIn * 27, size_t(cOut), size_t(cOut)};
        b.outSize = size_t(batch);
    }
    for (size_t s : b.sizes)
        b.inputs.push_back(deviceAlloc(s));
    b.out = deviceAlloc(b.outSize);
    b.ref = deviceAlloc(b.outSize);
    check(cudaMalloc(&b.scratch, sizeof(double) * 4096), "cudaMalloc", "resource");
    const size_t flushBytes = size_t(256) << 20;
    void *flush = nullptr;
    check(cudaMalloc(&flush, flushBytes), "cudaMalloc (L2 flush buffer)", "resource");

    auto generate = [&](unsigned long long seed) {
        if (isLayernorm) {
            fill(b.inputs[0], b.sizes[0], seed * 4 + 1, 0.0f, 1.0f);
            fill(b.inputs[1], b.sizes[1], seed * 4 + 2, 1.0f, 0.1f);
            fill(b.inputs[2], b.sizes[2], seed * 4 + 3, 0.0f, 0.1f);
        } else {
            const float bound = 1.0f / std::sqrt(float(cIn * 27));
            fill(b.inputs[0], b.sizes[0], seed * 4 + 1, 0.0f, 1.0f);
            fill(b.inputs[1], b.sizes[1], seed * 4 + 2, 0.0f, bound, true);
            fill(b.inputs[2], b.sizes[2], seed * 4 + 3, 0.0f, bound, true);
            fill(b.inputs[3], b.sizes[3], seed * 4 + 4, 0.0f, 1.0f);
        }
    };
    auto callCandidate = [&]() -> int {
        return isLayernorm ? layernorm_forward(b.inputs[0], b.inputs[1], b.inputs[2], b.out, rows, cols)
                           : convdiv_forward(b.inputs[0], b.inputs[1], b.inputs[2], b.inputs[3], b.out, batch);
    };
    auto callReference = [&]() {
        if (isLayernorm)
            referenceLayernorm(b.inputs[0], b.inputs[1], b.inputs[2], b.ref, rows, cols, b.scratch);
        else
            referenceConvdiv(b.inputs[0], b.inputs[1], b.inputs[2], b.inputs[3], b.ref, batch, b.scratch);
    };
    auto runCandidate = [&](const char *what) {
        const int rc = callCandidate();
        const cudaError_t launch = cudaGetLastError();
        const cudaError_t sync = cudaDeviceSynchronize();
        if (launch == cudaErrorLaunchOutOfResources || sync == cudaErrorLaunchOutOfResources)
            finish("resource", std::string(what) + ": too many resources requested for launch");
        if (launch == cudaErrorMemoryAllocation || sync == cudaErrorMemoryAllocation)
            finish("resource", std::string(what) + ": out of GPU memory");
        check(launch, what, "runtime_error");
        check(sync, what, "runtime_error");
        if (rc != 0)
            finish("runtime_error", std::string(what) + ": the entry point returned " + std::to_string(rc));
    };

    // Correctness: fresh seeded inputs per trial; allclose(atol = rtol = 1e-4).
    std::vector<float> got(b.outSize), want(b.outSize);
    int passed = 0;
    double maxAbsError = 0.0;
    std::string firstMismatch;
    for (int t = 0; t < trials; ++t) {
        generate(1000ULL + unsigned(t));
        check(cudaMemset(b.out, 0xff, b.outSize * sizeof(float)), "clear output"); // NaN pattern
        callReference();
        runCandidate("candidate call");
        check(cudaMemcpy(got.data(), b.out, b.outSize * sizeof(float), cudaMemcpyDeviceToHost), "copy output");
        check(cudaMemcpy(want.data(), b.ref, b.outSize * sizeof(float), cudaMemcpyDeviceToHost), "copy reference");
        bool ok = true;
        for (size_t i = 0; i < b.outSize; ++i) {
            const double diff = std::fabs(double(got[i]) - double(want[i]));
            if (!(diff <= 1e-4 + 1e-4 * std::fabs(double(want[i])))) {
                if (ok && firstMismatch.empty()) {
                    char text[200];
                    std::snprintf(text, sizeof text, "trial %d, element %zu: got %.9g, expected %.9g", t, i,
                                  double(got[i]), double(want[i]));
                    firstMismatch = text;
                }
                ok = false;
            }
            if (std::isfinite(diff))
                maxAbsError = std::fmax(maxAbsError, diff);
        }
        passed += ok ? 1 : 0;
    }
    if (passed != trials) {
        std::printf("{\"status\":\"mismatch\",\"gpu\":\"%s\",\"passed\":%d,\"trials\":%d,\"max_abs_error\":%.6g,"
                    "\"message\":\"%s\"}\n",
                    jsonEscape(prop.name).c_str(), passed, trials, maxAbsError, jsonEscape(firstMismatch.c_str()).c_str());
        return 2;
    }

    // Timing: warm-up, then each timed call after an L2 flush, CUDA events.
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    auto timeIt = [&](int count, bool candidate) {
        double total = 0.0;
        for (int i = 0; i < count; ++i) {
            check(cudaMemsetAsync(flush, i & 0xff, flushBytes), "L2 flush");
            check(cudaEventRecord(start), "cudaEventRecord");
            if (candidate)
                callCandidate();
            else
                callReference();
            check(cudaEventRecord(stop), "cudaEventRecord");
            check(cudaEventSynchronize(stop), "timed call", "runtime_error");
            float ms = 0.0f;
            check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
            total += ms;
        }
        return total / count;
    };
    for (int i = 0; i < warmup; ++i)
        runCandidate("warm-up call");
    const double candidateMs = timeIt(timed, true);
    check(cudaGetLastError(), "timed calls", "runtime_error");
    const double referenceMs = timeIt(std::max(3, timed / 10), false);
    std::printf("{\"status\":\"ok\",\"gpu\":\"%s\",\"passed\":%d,\"trials\":%d,\"max_abs_error\":%.6g,"
                "\"mean_ms\":%.6g,\"reference_ms\":%.6g,\"timed_calls\":%d}\n",
                jsonEscape(prop.name).c_str(), passed, trials, maxAbsError, candidateMs, referenceMs, timed);
    return 0;
}
