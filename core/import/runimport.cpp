#include "runimport.h"

#include "openevolverun.h"
#include "runmapping.h"
#include "shinkarun.h"

#include "base/sqliteheader.h"
#include "model/treejson.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QSet>

#include <algorithm>

namespace dreamrsi::RunImport {

using namespace detail;

QString frameworkName(Framework f)
{
    return f == Framework::OpenEvolve ? QStringLiteral("openevolve") : QStringLiteral("shinkaevolve");
}

std::optional<Framework> detect(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return looksLikeOpenEvolve(path) ? std::optional(Framework::OpenEvolve) : std::nullopt;
    if (info.isFile() && looksLikeShinka(path))
        return Framework::ShinkaEvolve;
    return std::nullopt;
}

namespace {

/// The programs of the run at `path`, or why it is none.
Result<std::pair<Framework, ProgramsRead>> readPrograms(const QString &path, const Options &options)
{
    using Read = Result<std::pair<Framework, ProgramsRead>>;
    const QFileInfo info(path);
    if (!info.exists())
        return Read::failure(QStringLiteral("%1: no such file or folder").arg(path));
    if (info.isDir()) {
        Result<ProgramsRead> read = readOpenEvolve(path, options);
        if (!read)
            return read.failureAs<std::pair<Framework, ProgramsRead>>();
        return Read::success({Framework::OpenEvolve, std::move(*read.value)});
    }
    const QString suffix = info.suffix().toLower();
    if (!hasSqliteHeader(path)) {
        if (suffix == QLatin1String("sqlite") || suffix == QLatin1String("db") || suffix == QLatin1String("sqlite3"))
            return Read::failure(QStringLiteral("%1: not an SQLite database (damaged, or not a ShinkaEvolve run)").arg(path));
        return Read::failure(QStringLiteral("%1: not a run: neither an OpenEvolve folder nor a ShinkaEvolve database").arg(path));
    }
    Result<ProgramsRead> read = readShinka(path, options);
    if (!read)
        return read.failureAs<std::pair<Framework, ProgramsRead>>();
    return Read::success({Framework::ShinkaEvolve, std::move(*read.value)});
}

} // namespace

Result<Imported> read(const QString &path, const Options &options)
{
    Result<std::pair<Framework, ProgramsRead>> programs = readPrograms(path, options);
    if (!programs)
        return programs.failureAs<Imported>();
    auto &[framework, read] = *programs.value;
    if (read.snapshot) {
        read.snapshot->programs = std::count_if(read.programs.cbegin(), read.programs.cend(),
                                                [](const RunProgram &p) { return !p.isCopy; });
    }
    std::optional<PopulationSnapshot> snapshot = std::move(read.snapshot);
    Result<DiscoveryTree> tree = buildTree(std::move(read.programs), framework, read.extras);
    if (!tree)
        return tree.failureAs<Imported>();
    return Result<Imported>::success(Imported{std::move(*tree.value), framework, read.notes, std::move(snapshot)});
}

QString worldName(const QString &path)
{
    const QFileInfo info(QDir::cleanPath(path)); // "checkpoint_6/" is checkpoint_6
    const QString name = info.fileName();
    if (info.isDir() && (name == QLatin1String("db") || name.startsWith(QLatin1String("checkpoint_"))))
        return QFileInfo(info.absolutePath()).fileName() + QLatin1Char('-') + name;
    return name;
}

QString importSummary(const DiscoveryTree &tree)
{
    const QJsonObject from = tree.meta().payload.value(QLatin1String("imported_from")).toObject();
    if (from.isEmpty())
        return {};
    const auto count = [&from](const char *key, const char *one, const char *many) {
        const qint64 n = from.value(QLatin1String(key)).toInteger();
        return QStringLiteral("%1 %2").arg(n).arg(QLatin1String(n == 1 ? one : many));
    };
    QString text = QStringLiteral("imported from %1: %2, %3, %4, %5, %6")
                       .arg(from.value(QLatin1String("framework")).toString(),
                            count("programs", "program", "programs"),
                            count("copies_dropped", "copy dropped", "copies dropped"), count("forks", "fork", "forks"),
                            count("orphans", "orphan", "orphans"),
                            count("failed_proposals", "failed proposal", "failed proposals"));
    if (const QString snapshot = from.value(QLatin1String("population_snapshot")).toString(); !snapshot.isEmpty())
        text += QStringLiteral(", population snapshot: %1").arg(snapshot);
    text += tree.meta().approximate ? QStringLiteral("; an approximate world (replayed only when asked)")
                                    : QStringLiteral("; a faithful world");
    return text;
}

bool looksLikeRunPath(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return true;
    if (!info.isFile())
        return false;
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("sqlite") || suffix == QLatin1String("sqlite3") || suffix == QLatin1String("db"))
        return true;
    return looksLikeShinka(path); // which reads the header first
}

Result<Imported> readTreeOrRun(const QString &path, const Options &options)
{
    if (looksLikeRunPath(path))
        return read(path, options);
    TreeJson::ParseResult parsed = TreeJson::readFile(path);
    if (!parsed.ok())
        return Result<Imported>::failure(parsed.error.message);
    return Result<Imported>::success(Imported{std::move(*parsed.tree), std::nullopt, {}, std::nullopt});
}

namespace {

/// Adds one program's metrics to a survey.
void survey(MetricSurvey &survey, QSet<QString> &names, const QJsonObject &metrics)
{
    if (metrics.contains(QLatin1String("error")))
        return; // a failed evaluation's metrics are no choice
    if (finiteNumber(metrics.value(QLatin1String("combined_score"))))
        survey.hasCombinedScore = true;
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
        if (finiteNumber(it.value()))
            names.insert(it.key());
    }
}

} // namespace

MetricSurvey surveyMetrics(const DiscoveryTree &imported)
{
    MetricSurvey result;
    QSet<QString> names;
    for (const Cell &c : imported.cells())
        survey(result, names, c.payload.value(QLatin1String("metrics")).toObject());
    result.numericMetrics = QStringList(names.cbegin(), names.cend());
    result.numericMetrics.sort();
    return result;
}

Result<MetricSurvey> surveyMetrics(const QString &path)
{
    Result<std::pair<Framework, ProgramsRead>> programs = readPrograms(path, {});
    if (!programs)
        return programs.failureAs<MetricSurvey>();
    MetricSurvey result;
    QSet<QString> names;
    for (const RunProgram &p : std::as_const(programs.value->second.programs))
        survey(result, names, p.payload.value(QLatin1String("metrics")).toObject());
    result.numericMetrics = QStringList(names.cbegin(), names.cend());
    result.numericMetrics.sort();
    return Result<MetricSurvey>::success(std::move(result));
}

} // namespace dreamrsi::RunImport
