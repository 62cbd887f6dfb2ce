#include "taskregistry.h"

#include "autocorrelationevaluator.h"
#include "circlepackingevaluator.h"
#include "cudakernelevaluator.h"
#include "lassoevaluator.h"
#include "sumsdifferencesevaluator.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#ifndef DREAMRSI_EVALUATORS_SOURCE_DIR
#define DREAMRSI_EVALUATORS_SOURCE_DIR ""
#endif

namespace dreamrsi {

QStringList TaskRegistry::names()
{
    return {QStringLiteral("c3_autocorrelation"), QStringLiteral("circle_packing_26"), QStringLiteral("cuda_kernels"),
            QStringLiteral("lasso_path"), QStringLiteral("sums_differences")};
}

std::unique_ptr<TaskEvaluator> TaskRegistry::create(const QString &name)
{
    if (name == QLatin1String("circle_packing_26"))
        return std::make_unique<CirclePackingEvaluator>();
    if (name == QLatin1String("c3_autocorrelation"))
        return std::make_unique<AutocorrelationEvaluator>();
    if (name == QLatin1String("sums_differences"))
        return std::make_unique<SumsDifferencesEvaluator>();
    if (name == QLatin1String("lasso_path"))
        return std::make_unique<LassoEvaluator>();
    if (name == QLatin1String("cuda_kernels"))
        return std::make_unique<CudaKernelEvaluator>();
    return nullptr;
}

QString TaskRegistry::evaluatorsRoot()
{
    QStringList candidates;
    const QString fromEnv = qEnvironmentVariable("DREAMRSI_EVALUATORS_DIR");
    if (!fromEnv.isEmpty())
        candidates << fromEnv;
    if (QCoreApplication::instance())
        candidates << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/dreamrsi/evaluators");
    candidates << QString::fromUtf8(DREAMRSI_EVALUATORS_SOURCE_DIR);
    for (const QString &dir : std::as_const(candidates)) {
        if (!dir.isEmpty() && QFileInfo(dir + QStringLiteral("/circle_packing_26")).isDir())
            return QDir(dir).absolutePath();
    }
    return {};
}

QString TaskRegistry::taskDirectory(const QString &name)
{
    const QString root = evaluatorsRoot();
    if (root.isEmpty() || name.isEmpty() || name.contains(QLatin1Char('/')))
        return {};
    const QString dir = root + QLatin1Char('/') + name;
    return QFileInfo(dir).isDir() ? dir : QString();
}

QString TaskRegistry::initialProgram(const QString &name)
{
    const QString dir = taskDirectory(name);
    if (dir.isEmpty())
        return {};
    const QStringList files = QDir(dir).entryList({QStringLiteral("initial.*")}, QDir::Files, QDir::Name);
    return files.isEmpty() ? QString() : dir + QLatin1Char('/') + files.first();
}

} // namespace dreamrsi
