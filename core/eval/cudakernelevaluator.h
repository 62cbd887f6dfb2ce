#pragma once

#include "taskevaluator.h"

namespace dreamrsi {

/// cuda_kernels: a CUDA C++ candidate for one KernelBench kernel (LayerNorm
/// or ConvDiv), built with nvcc together with the harness of
/// evaluators/cuda_kernels/harness.cu, checked against the harness's
/// reference on 5 seeded inputs (allclose, atol = rtol = 1e-4) and timed with
/// CUDA events after an L2 flush (3 warm-ups, 100 timed calls); score = 1/ms.
///
/// The kernel is the `kernel` option ("layernorm" or "convdiv"), else the
/// entry point the source defines. Without nvcc the result is `env`; without
/// a GPU the build is still checked (a compile error is `compile`) and the
/// result is `env` saying that no GPU is present. Options: `kernel`,
/// `trials` (5), `warmup` (3), `timed_calls` (100), `nvcc_arch` (default:
/// native when a GPU is present, else sm_90; an nvcc that does not know the
/// architecture is `env`).
class CudaKernelEvaluator final : public TaskEvaluator
{
public:
    QString name() const override;
    QString summary() const override;
    EvaluationResult evaluate(const EvaluationContext &context) const override;

    /// nvcc's path, or empty when the CUDA toolkit is not installed.
    static QString nvccPath();
    /// True when an NVIDIA device node exists (a GPU may be usable).
    static bool gpuDevicePresent();
};

} // namespace dreamrsi
