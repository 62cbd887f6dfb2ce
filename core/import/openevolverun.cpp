#include "openevolverun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>

namespace dreamrsi::RunImport::detail {

namespace {

/// A folder that holds program files: `programs/` with at least one `.json`.
bool holdsPrograms(const QString &folder)
{
    const QDir programs(folder + QStringLiteral("/programs"));
    return programs.exists()
           && !programs.entryList({QStringLiteral("*.json")}, QDir::Files | QDir::Readable).isEmpty();
}

/// The number of a `checkpoint_N` folder name, -1 for any other name.
qint64 checkpointNumber(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^checkpoint_(\\d+)$"));
    const QRegularExpressionMatch m = pattern.match(name);
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

/// The highest-numbered `checkpoint_N` under `folder` that holds programs.
std::optional<QString> highestCheckpoint(const QString &folder)
{
    qint64 best = -1;
    QString bestPath;
    const QDir dir(folder);
    for (const QString &name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const qint64 number = checkpointNumber(name);
        if (number > best && holdsPrograms(dir.filePath(name))) {
            best = number;
            bestPath = dir.filePath(name);
        }
    }
    if (best < 0)
        return std::nullopt;
    return bestPath;
}

/// The folder whose programs/ is read, and how it was chosen.
struct Located
{
    QString folder;
    qint64 checkpoint = -1; ///< its number when it is a checkpoint (a population snapshot)
    QString note;
};

/// The last name of a folder however it was written ("checkpoint_6/", ".").
QString folderName(const QString &path)
{
    return QFileInfo(QDir::cleanPath(QFileInfo(path).absoluteFilePath())).fileName();
}

std::optional<Located> locate(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isDir())
        return std::nullopt;
    const QString folder = info.absoluteFilePath();
    if (holdsPrograms(folder))
        return Located{path, checkpointNumber(folderName(path)), QString()};
    const QString db = folder + QStringLiteral("/db");
    if (holdsPrograms(db))
        return Located{QDir(path).filePath(QStringLiteral("db")), -1,
                       QStringLiteral("%1: reading db/ (every program of the run)").arg(path)};
    for (const QString &under : QStringList{folder + QStringLiteral("/checkpoints"), folder}) {
        if (const std::optional<QString> checkpoint = highestCheckpoint(under)) {
            const QString name = QFileInfo(*checkpoint).fileName();
            const QString shown = under == folder ? name : QStringLiteral("checkpoints/") + name;
            return Located{QDir(path).filePath(shown), checkpointNumber(name),
                           QStringLiteral("%1: no db/ with programs; reading the highest checkpoint, %2 "
                                          "(its surviving population only)")
                               .arg(path, shown)};
        }
    }
    return std::nullopt;
}

/// Rule 5 for OpenEvolve: the failure of an errored evaluation, else the
/// metric asked for, combined_score, or OpenEvolve's mean of the numbers.
void score(RunProgram &p, const QJsonObject &metrics, const Options &options)
{
    if (metrics.contains(key("error"))) {
        const bool timedOut = metrics.value(key("timeout")).toBool();
        p.failClass = QLatin1String(timedOut ? FailClass::Timeout : FailClass::Runtime);
        const QJsonValue error = metrics.value(key("error"));
        p.error = error.isString() && !error.toString().isEmpty()
                      ? error.toString()
                      : (timedOut ? QStringLiteral("the evaluation timed out (metrics: timeout)")
                                  : QStringLiteral("the evaluation failed (metrics: error)"));
        p.evaluated = false;
        p.valid = false;
        return;
    }
    std::optional<double> value;
    QString missing;
    if (!options.scoreMetric.isEmpty()) {
        value = finiteNumber(metrics.value(options.scoreMetric));
        if (!value)
            missing = QStringLiteral("no numeric metric \"%1\" to score by").arg(options.scoreMetric);
    } else if (metrics.contains(key("combined_score"))) {
        value = finiteNumber(metrics.value(key("combined_score")));
        if (!value)
            missing = QStringLiteral("combined_score is not a finite number");
    } else {
        double sum = 0.0;
        int count = 0;
        for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
            if (const std::optional<double> v = finiteNumber(it.value())) {
                sum += *v;
                ++count;
            }
        }
        if (count > 0)
            value = sum / count;
        else
            missing = QStringLiteral("no numeric metric to score by");
    }
    p.evaluated = true;
    if (value) {
        p.score = value;
        p.failClass = QLatin1String(FailClass::Ok);
        p.valid = true;
    } else {
        p.failClass = QLatin1String(FailClass::Correctness);
        p.error = missing;
        p.valid = false;
    }
}

Result<RunProgram> readProgram(const QString &file, const Options &options)
{
    using Read = Result<RunProgram>;
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return Read::failure(QStringLiteral("%1: cannot open: %2").arg(file, f.errorString()));
    const QByteArray bytes = withoutNonFiniteWords(f.readAll());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return Read::failure(QStringLiteral("%1: not a program file: not valid JSON: %2 (byte %3)")
                                 .arg(file, parseError.errorString())
                                 .arg(parseError.offset));
    if (!doc.isObject())
        return Read::failure(QStringLiteral("%1: not a program file: not a JSON object").arg(file));
    const QJsonObject o = doc.object();
    RunProgram p;
    p.file = file;
    const QJsonValue id = o.value(key("id"));
    if (!id.isString() || id.toString().isEmpty())
        return Read::failure(QStringLiteral("%1: not a program file: no \"id\" string").arg(file));
    p.id = id.toString();
    const QJsonValue parent = o.value(key("parent_id"));
    if (parent.isString() && !parent.toString().isEmpty())
        p.parentId = parent.toString();
    else if (!parent.isNull() && !parent.isUndefined() && !parent.isString())
        return Read::failure(QStringLiteral("%1: program \"%2\": parent_id is neither a string nor null").arg(file, p.id));
    const QJsonValue timestamp = o.value(key("timestamp"));
    if (!timestamp.isUndefined() && !timestamp.isNull() && !finiteNumber(timestamp))
        return Read::failure(QStringLiteral("%1: program \"%2\": timestamp is not a number").arg(file, p.id));
    p.timestamp = timestamp.toDouble();
    p.code = o.value(key("code")).toString();
    const QJsonObject metadata = o.value(key("metadata")).toObject();
    const QJsonObject metrics = o.value(key("metrics")).toObject();
    if (metadata.value(key("migrant")).toBool()) {
        p.isCopy = true;
        p.copyOf = p.parentId;
    }
    score(p, metrics, options);

    QJsonObject origin{{key("framework"), QStringLiteral("openevolve")},
                       {key("id"), p.id},
                       {key("parent_id"), p.parentId ? QJsonValue(*p.parentId) : QJsonValue()},
                       {key("generation"), o.value(key("generation")).isDouble() ? o.value(key("generation")) : QJsonValue()},
                       {key("island"), metadata.contains(key("island")) ? metadata.value(key("island")) : QJsonValue()},
                       {key("iteration"), o.value(key("iteration_found")).isDouble() ? o.value(key("iteration_found"))
                                                                                        : QJsonValue()}};
    p.payload.insert(key("origin"), origin);
    p.payload.insert(key("program"), p.code);
    const QString described = o.value(key("changes_description")).toString();
    const QJsonValue changes = metadata.value(key("changes"));
    if (!described.isEmpty())
        p.payload.insert(key("proposal"), described);
    else if (changes.isString() && !changes.toString().isEmpty())
        p.payload.insert(key("proposal"), changes);
    p.payload.insert(key("metrics"), metrics);
    return Read::success(std::move(p));
}

/// A checkpoint's run as OpenEvolve lays it out: the output folder holds
/// checkpoints/checkpoint_N and db/ (a checkpoint straight in a folder: that
/// folder), so the full history of `checkpoint` is the output folder's db/.
PopulationSnapshot snapshotOf(const QString &checkpoint, qint64 number)
{
    PopulationSnapshot s;
    s.checkpoint = QDir::cleanPath(checkpoint);
    s.lastIteration = number;
    const QString absolute = QDir::cleanPath(QFileInfo(checkpoint).absoluteFilePath());
    const bool underCheckpoints = QFileInfo(QFileInfo(absolute).absolutePath()).fileName() == QLatin1String("checkpoints");
    s.historyPlace = QDir::cleanPath(checkpoint + (underCheckpoints ? QStringLiteral("/../../db") : QStringLiteral("/../db")));
    if (holdsPrograms(s.historyPlace))
        s.history = s.historyPlace;
    return s;
}

/// Why a folder that is no run was refused, with the folder to give instead
/// when the user pointed at the programs/ inside one.
QString notARun(const QString &path)
{
    const QString absolute = QDir::cleanPath(QFileInfo(path).absoluteFilePath());
    const QString parent = QFileInfo(absolute).absolutePath();
    if (QFileInfo(absolute).fileName() == QLatin1String("programs") && holdsPrograms(parent)) {
        const QString given = QDir::cleanPath(path + QStringLiteral("/.."));
        const QString name = QFileInfo(parent).fileName();
        const QString what = name == QLatin1String("db") ? QStringLiteral("the run's db/ folder, every program of the run")
                             : checkpointNumber(name) >= 0
                                 ? QStringLiteral("a checkpoint, the population that survived to it")
                                 : QStringLiteral("the folder that holds these program files");
        return QStringLiteral("%1: not an OpenEvolve run but the programs/ folder inside one; give the folder above it, "
                              "%2 (%3)")
            .arg(path, given, what);
    }
    return QStringLiteral("%1: not an OpenEvolve run: no programs/ with program files, no db/ and no checkpoints/checkpoint_N")
        .arg(path);
}

} // namespace

bool looksLikeOpenEvolve(const QString &path)
{
    return locate(path).has_value();
}

Result<ProgramsRead> readOpenEvolve(const QString &path, const Options &options)
{
    using Read = Result<ProgramsRead>;
    const std::optional<Located> located = locate(path);
    if (!located)
        return Read::failure(notARun(path));
    ProgramsRead read;
    read.extras.source = path;
    if (!located->note.isEmpty())
        read.notes.append(located->note);
    if (located->checkpoint >= 0) {
        read.extras.snapshotIterations = located->checkpoint + 1;
        read.snapshot = snapshotOf(located->folder, located->checkpoint);
    }
    const QDir programs(located->folder + QStringLiteral("/programs"));
    const QStringList files = programs.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    read.programs.reserve(files.size());
    for (const QString &name : files) {
        Result<RunProgram> program = readProgram(programs.filePath(name), options);
        if (!program)
            return program.failureAs<ProgramsRead>();
        read.programs.append(std::move(*program.value));
    }
    return Read::success(std::move(read));
}

} // namespace dreamrsi::RunImport::detail
