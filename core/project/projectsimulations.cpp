#include "projectsimulations.h"

#include "model/meanci.h"

#include <QDir>
#include <QHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QFileInfo>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <utility>
#include <limits>

namespace dreamrsi {

namespace {
const char *const StampFormat = "yyyyMMdd-HHmmss-zzz";
}

QString ProjectSimulations::folderOf(const QString &projectPath)
{
    const QFileInfo info(projectPath);
    return info.absoluteDir().filePath(info.fileName() + QStringLiteral(".simulations"));
}

Result<QString> ProjectSimulations::save(const QString &projectPath, const QByteArray &json)
{
    if (!QFileInfo(projectPath).isFile())
        return Result<QString>::failure(QStringLiteral("no project at %1").arg(projectPath));
    const QString folder = folderOf(projectPath);
    if (!QDir().mkpath(folder))
        return Result<QString>::failure(QStringLiteral("cannot create the folder %1").arg(folder));
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QLatin1String(StampFormat));
    QString path = QDir(folder).filePath(QStringLiteral("simulation-%1.json").arg(stamp));
    for (int i = 2; QFileInfo::exists(path); ++i)
        path = QDir(folder).filePath(QStringLiteral("simulation-%1-%2.json").arg(stamp).arg(i));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(json) != json.size() || !file.commit())
        return Result<QString>::failure(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return Result<QString>::success(path);
}

QList<StoredSimulation> ProjectSimulations::list(const QString &projectPath)
{
    QList<StoredSimulation> out;
    const QDir dir(folderOf(projectPath));
    QStringList names = dir.entryList({QStringLiteral("simulation-*.json")}, QDir::Files, QDir::Name);
    // Runs of the same millisecond are named STAMP.json, STAMP-2.json, …:
    // by stamp, then by that number (a plain name sort puts "-2" first).
    auto key = [](const QString &name) {
        const QString stem = name.chopped(5); // without ".json"
        const QString stamp = stem.mid(11, int(qstrlen(StampFormat)));
        const int n = stem.size() > 11 + stamp.size() + 1 ? stem.mid(11 + stamp.size() + 1).toInt() : 1;
        return std::make_pair(stamp, n);
    };
    std::stable_sort(names.begin(), names.end(), [&](const QString &a, const QString &b) { return key(a) < key(b); });
    for (const QString &name : names) {
        StoredSimulation s;
        s.path = dir.filePath(name);
        const QString stamp = name.mid(11, int(qstrlen(StampFormat)));
        s.created = QDateTime::fromString(stamp, QLatin1String(StampFormat));
        s.created.setTimeSpec(Qt::UTC);
        out.append(s);
    }
    return out;
}

Result<SimulationCurves> ProjectSimulations::curvesFromJson(const QByteArray &json)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    if (!doc.isObject())
        return Result<SimulationCurves>::failure(
            parseError.error != QJsonParseError::NoError
                ? QStringLiteral("not JSON: %1 at offset %2").arg(parseError.errorString()).arg(parseError.offset)
                : QStringLiteral("not a JSON object"));
    const QJsonValue runs = doc.object().value(QStringLiteral("runs"));
    if (!runs.isArray())
        return Result<SimulationCurves>::failure(QStringLiteral("no 'runs' array: not the output of `dreamrsi loop --worlds --json`"));
    // Per arm, per iteration index: the values of every repeat.
    struct Values
    {
        QList<QList<double>> attainment, calls;
    };
    QStringList order;
    QHash<QString, Values> byArm;
    int index = 0;
    for (const QJsonValue &v : runs.toArray()) {
        const QJsonObject run = v.toObject();
        QString arm = run.value(QStringLiteral("arm")).toString();
        if (arm.isEmpty())
            arm = run.value(QStringLiteral("fixed")).toBool() ? QStringLiteral("fixed") : QStringLiteral("dream");
        const QJsonValue iterations = run.value(QStringLiteral("iterations"));
        if (!iterations.isArray())
            return Result<SimulationCurves>::failure(QStringLiteral("run %1 has no 'iterations' array").arg(index));
        if (!order.contains(arm))
            order.append(arm);
        Values &values = byArm[arm];
        const QJsonArray its = iterations.toArray();
        for (qsizetype t = 0; t < its.size(); ++t) {
            const QJsonObject it = its.at(t).toObject();
            const QJsonValue calls = it.value(QStringLiteral("cumulative_calls"));
            if (!calls.isDouble())
                return Result<SimulationCurves>::failure(
                    QStringLiteral("run %1, iteration %2: 'cumulative_calls' is not a number").arg(index).arg(t + 1));
            while (values.calls.size() <= t) {
                values.calls.append(QList<double>());
                values.attainment.append(QList<double>());
            }
            values.calls[t].append(calls.toDouble());
            const QJsonValue a = it.value(QStringLiteral("attainment"));
            if (a.isDouble())
                values.attainment[t].append(a.toDouble());
        }
        ++index;
    }
    // The band of a curve point: NaN where no repeat has a value, 0 with one.
    auto meanCi = [](const QList<double> &xs, double *mean, double *ci) {
        const MeanCi95 m = meanCi95(xs);
        *mean = m.mean.value_or(std::numeric_limits<double>::quiet_NaN());
        *ci = m.mean ? m.ci95.value_or(0.0) : std::numeric_limits<double>::quiet_NaN();
    };
    SimulationCurves curves;
    curves.summary = doc.object().value(QStringLiteral("summary")).toObject();
    for (const QString &arm : order) {
        const Values &values = byArm.value(arm);
        SimulationArmCurve c;
        c.arm = arm;
        for (qsizetype t = 0; t < values.calls.size(); ++t) {
            c.repeats = std::max(c.repeats, int(values.calls.at(t).size()));
            double m = 0.0, ci = 0.0;
            c.iterations.append(int(t + 1));
            meanCi(values.attainment.at(t), &m, &ci);
            c.attainmentMean.append(m);
            c.attainmentCi95.append(ci);
            meanCi(values.calls.at(t), &m, &ci);
            c.callsMean.append(m);
            c.callsCi95.append(ci);
        }
        curves.arms.append(c);
    }
    if (curves.arms.isEmpty())
        return Result<SimulationCurves>::failure(QStringLiteral("the run holds no iterations"));
    return Result<SimulationCurves>::success(curves);
}

Result<SimulationCurves> ProjectSimulations::readCurves(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<SimulationCurves>::failure(QStringLiteral("%1: %2").arg(path, file.errorString()));
    Result<SimulationCurves> curves = curvesFromJson(file.readAll());
    if (!curves.ok())
        return Result<SimulationCurves>::failure(QStringLiteral("%1: %2").arg(path, curves.error));
    return curves;
}

} // namespace dreamrsi
