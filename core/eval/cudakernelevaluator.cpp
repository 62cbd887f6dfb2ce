#include "cudakernelevaluator.h"

#include "compilecache.h"
#include "evaluationcontext.h"
#include "failureclassifier.h"
#include "taskregistry.h"

#include "model/cell.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QList>
#include <QProcess>
#include <QStandardPaths>

#include <utility>

namespace dreamrsi {

namespace {

QByteArray nvccIdentity(const QString &nvcc)
{
    QProcess p;
    p.start(nvcc, {QStringLiteral("--version")});
    p.waitForFinished(20'000);
    return p.readAllStandardOutput();
}

/// The task's result from the harness's run: its verdict is the last JSON
/// line it prints, whatever its exit code (docs/evaluators.md).
EvaluationResult verdictOf(const SandboxResult &run, const QString &kernel, QJsonObject metrics)
{
    const QList<QByteArray> lines = run.standardOutput.trimmed().split('\n');
    const QJsonObject verdict = QJsonDocument::fromJson(lines.isEmpty() ? QByteArray() : lines.last()).object();
    const QString status = verdict.value(QStringLiteral("status")).toString();
    const QString message = verdict.value(QStringLiteral("message")).toString();
    if (verdict.contains(QStringLiteral("gpu")))
        metrics.insert(QStringLiteral("gpu"), verdict.value(QStringLiteral("gpu")));
    if (status == QLatin1String("no_gpu"))
        return EvaluationResult::failure(FailClass::Env,
                                         QStringLiteral("no CUDA GPU on this machine (%1); the candidate compiled with "
                                                        "nvcc but cannot be checked or timed here")
                                             .arg(message),
                                         metrics);
    if (status.isEmpty()) {
        if (auto failure = FailureClassifier::classify(run, FailureClassifier::Stage::Run, QStringLiteral("the kernel harness"))) {
            failure->metrics.insert(QStringLiteral("kernel"), kernel);
            return *failure;
        }
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("the harness printed no verdict"), metrics);
    }
    for (const char *key : {"passed", "trials", "max_abs_error", "mean_ms", "reference_ms", "timed_calls"}) {
        if (verdict.contains(QLatin1String(key)))
            metrics.insert(QLatin1String(key), verdict.value(QLatin1String(key)));
    }
    auto counted = [&](EvaluationResult r) {
        r.nValid = verdict.value(QStringLiteral("passed")).toInteger();
        r.nTotal = verdict.value(QStringLiteral("trials")).toInteger();
        return r;
    };
    if (status == QLatin1String("mismatch"))
        return counted(EvaluationResult::failure(FailClass::Correctness,
                                                 QStringLiteral("output differs from the reference: ") + message, metrics));
    if (status == QLatin1String("resource"))
        return EvaluationResult::failure(FailClass::Resource, message, metrics);
    if (status == QLatin1String("runtime_error") || status == QLatin1String("missing_entry"))
        return EvaluationResult::failure(status == QLatin1String("missing_entry") ? FailClass::Compile : FailClass::Runtime,
                                         message, metrics);
    if (status != QLatin1String("ok"))
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("harness: %1: %2").arg(status, message), metrics);
    const double ms = verdict.value(QStringLiteral("mean_ms")).toDouble();
    const double referenceMs = verdict.value(QStringLiteral("reference_ms")).toDouble();
    if (!(ms > 0.0))
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("the harness timed %1 ms").arg(ms), metrics);
    const double speedup = referenceMs / ms;
    metrics.insert(QStringLiteral("speedup_vs_reference"), speedup);
    metrics.insert(QStringLiteral("suspicious"), speedup > 10.0);
    return counted(EvaluationResult::success(1.0 / ms, metrics));
}

} // namespace

QString CudaKernelEvaluator::name() const
{
    return QStringLiteral("cuda_kernels");
}

QString CudaKernelEvaluator::summary() const
{
    return QStringLiteral("CUDA kernels (LayerNorm, ConvDiv): nvcc build, allclose vs reference, CUDA-event timing, score 1/ms");
}

QString CudaKernelEvaluator::nvccPath()
{
    QString found = QStandardPaths::findExecutable(QStringLiteral("nvcc"));
    if (found.isEmpty()) {
        const QString home = qEnvironmentVariable("CUDA_HOME", QStringLiteral("/usr/local/cuda"));
        found = QStandardPaths::findExecutable(QStringLiteral("nvcc"), {home + QStringLiteral("/bin")});
    }
    return found;
}

bool CudaKernelEvaluator::gpuDevicePresent()
{
    return QFileInfo::exists(QStringLiteral("/dev/nvidia0")) || QFileInfo::exists(QStringLiteral("/dev/nvidiactl"));
}

EvaluationResult CudaKernelEvaluator::evaluate(const EvaluationContext &context) const
{
    QFile file(context.candidatePath());
    if (context.candidatePath().isEmpty() || !file.open(QIODevice::ReadOnly))
        return EvaluationResult::failure(FailClass::Agent,
                                         QStringLiteral("no candidate program at '%1'").arg(context.candidatePath()));
    const QByteArray source = file.readAll();
    QString kernel = context.optionString(QStringLiteral("kernel"), {});
    if (kernel.isEmpty()) {
        if (source.contains("layernorm_forward"))
            kernel = QStringLiteral("layernorm");
        else if (source.contains("convdiv_forward"))
            kernel = QStringLiteral("convdiv");
        else
            return EvaluationResult::failure(
                FailClass::Compile,
                QStringLiteral("the candidate defines neither extern \"C\" layernorm_forward nor convdiv_forward"));
    }
    if (kernel != QLatin1String("layernorm") && kernel != QLatin1String("convdiv"))
        return EvaluationResult::failure(FailClass::Env,
                                         QStringLiteral("unknown kernel '%1' (layernorm or convdiv)").arg(kernel));
    QJsonObject metrics{{QStringLiteral("kernel"), kernel}};

    const QString nvcc = nvccPath();
    if (nvcc.isEmpty())
        return EvaluationResult::failure(FailClass::Env,
                                         QStringLiteral("nvcc not found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin): "
                                                        "the CUDA task needs the CUDA toolkit"),
                                         metrics);
    const QString harnessSource = TaskRegistry::taskDirectory(name()) + QStringLiteral("/harness.cu");
    QFile harness(harnessSource);
    if (!harness.open(QIODevice::ReadOnly))
        return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot read the harness '%1'").arg(harnessSource));
    const QByteArray harnessText = harness.readAll();
    const QString work = context.workDir();
    {
        QFile out(work + QStringLiteral("/harness.cu"));
        QFile cand(work + QStringLiteral("/candidate.cu"));
        if (!out.open(QIODevice::WriteOnly) || out.write(harnessText) < 0 || !cand.open(QIODevice::WriteOnly)
            || cand.write(source) < 0)
            return EvaluationResult::failure(FailClass::Env, QStringLiteral("cannot write into the work directory"));
    }

    const bool gpu = gpuDevicePresent();
    // Without a GPU the build is checked for the card the task is written for
    // (Hopper, sm_90: the H100/H200), not for nvcc's oldest default, so that a
    // kernel using sm_80+ intrinsics is not failed as a compile error here.
    const QString arch = context.optionString(QStringLiteral("nvcc_arch"), gpu ? QStringLiteral("native") : QStringLiteral("sm_90"));
    QStringList args{QStringLiteral("-O3"), QStringLiteral("-std=c++17")};
    if (!arch.isEmpty())
        args << QStringLiteral("-arch=") + arch;
    args << QStringLiteral("-o") << QStringLiteral("harness") << QStringLiteral("harness.cu") << QStringLiteral("candidate.cu");
    const QString key = CompileCache::key({QByteArrayLiteral("nvcc"), nvccIdentity(nvcc), args.join(QLatin1Char(' ')).toUtf8(),
                                           harnessText, source});
    const QString binary = work + QStringLiteral("/harness");
    bool cached = arch != QLatin1String("native") && CompileCache::fetch(key, binary);
    if (!cached) {
        SandboxRequest build;
        build.program = nvcc;
        build.arguments = args;
        build.limits.wallMs = context.optionInt(QStringLiteral("compile_time_limit_s"), 300) * 1000;
        build.limits.cpuSeconds = build.limits.wallMs / 1000;
        build.limits.addressSpaceBytes = 0; // nvcc's front ends reserve large address ranges
        build.limits.fileSizeBytes = qint64(1) << 30;
        build.limits.outputBytes = qint64(16) << 20;
        build.gpuAccess = arch == QLatin1String("native");
        const SandboxResult run = context.run(build);
        if (auto failure = FailureClassifier::classify(run, FailureClassifier::Stage::Compile, QStringLiteral("nvcc"))) {
            if (failure->failClass == QLatin1String(FailClass::Runtime))
                failure->failClass = QString::fromLatin1(FailClass::Compile);
            // An nvcc too old for the architecture asked for is the machine's fault.
            if (failure->error && failure->error->contains(QLatin1String("Unsupported gpu architecture")))
                failure->failClass = QString::fromLatin1(FailClass::Env);
            failure->metrics.insert(QStringLiteral("kernel"), kernel);
            return *failure;
        }
        if (arch != QLatin1String("native"))
            CompileCache::store(key, binary);
    }
    metrics.insert(QStringLiteral("compiled"), true);

    SandboxRequest request;
    request.program = binary;
    request.arguments = {kernel, QString::number(context.optionInt(QStringLiteral("trials"), 5)),
                         QString::number(context.optionInt(QStringLiteral("warmup"), 3)),
                         QString::number(context.optionInt(QStringLiteral("timed_calls"), 100))};
    request.gpuAccess = true;
    request.limits.wallMs = context.optionInt(QStringLiteral("time_limit_s"), 180) * 1000;
    request.limits.cpuSeconds = request.limits.wallMs / 1000;
    request.limits.addressSpaceBytes = 0; // the CUDA driver maps the whole device into the address space
    const SandboxResult run = context.run(request);

    return verdictOf(run, kernel, std::move(metrics));
}

} // namespace dreamrsi
