#include "builtincudakernels.h"
#include "builtintemplates.h"

#include "builtinrandom.h"

#include <algorithm>

namespace dreamrsi {

namespace {

// The program, in a file of its own language: core/agent/templates/layernorm.cu.in.
const QString &layerNormTemplate()
{
    static const QString text = BuiltinTemplates::load(QStringLiteral("layernorm.cu.in"));
    return text;
}

// The program, in a file of its own language: core/agent/templates/convdiv.cu.in.
const QString &convDivTemplate()
{
    static const QString text = BuiltinTemplates::load(QStringLiteral("convdiv.cu.in"));
    return text;
}

const QList<int> blocks{128, 256, 512, 1024};

BuiltinParams freshKernel(const QString &direction, const QString &kernel)
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
            p = freshKernel(QStringLiteral("baseline"), kernel);
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
        p = freshKernel(step.direction, kernel);
        d.notes << QStringLiteral("A %1 variant for this branch: %2.").arg(kernel, describe(step.direction));
    }
    stamp(p, step, random);
    d.program = (kernel == QLatin1String("convdiv") ? convDivTemplate() : layerNormTemplate());
    d.program.replace(QStringLiteral("@HEADER@"), p.header(QStringLiteral("//")));
    d.program.replace(QStringLiteral("@BLOCK@"), QString::number(p.integer(QStringLiteral("block"), 256)));
    d.program.replace(QStringLiteral("@GRID@"), QString::number(p.integer(QStringLiteral("grid"), 128)));
    d.program.replace(QStringLiteral("@VEC4@"), p.integer(QStringLiteral("vec4"), 0) ? QStringLiteral("true") : QStringLiteral("false"));
    d.program.replace(QStringLiteral("@SHARED@"), p.integer(QStringLiteral("shared"), 0) ? QStringLiteral("true") : QStringLiteral("false"));
    return d;
}

} // namespace dreamrsi
