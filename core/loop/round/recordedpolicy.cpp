#include "recordedpolicy.h"

#include "store/projectreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

namespace dreamrsi::RecordedPolicy {

Result<QList<QStringList>> batches(ProjectReader &reader, IterationId iteration)
{
    using Batches = Result<QList<QStringList>>;
    const StoreResult<IterationInfo> info = reader.iteration(iteration);
    if (!info.ok())
        return info.failureAs<QList<QStringList>>();
    const StoreResult<QList<SteeringEvent>> events = reader.steeringEvents(iteration);
    if (!events.ok())
        return events.failureAs<QList<QStringList>>();
    QMap<int, QStringList> byRound;
    for (const SteeringEvent &e : *events.value) {
        if (e.action == QLatin1String("batch") && e.round)
            byRound.insert(*e.round, e.text.split(QLatin1Char(' '), Qt::SkipEmptyParts));
    }
    if (byRound.isEmpty()) {
        const StoreResult<ProjectInfo> project = reader.projectInfo();
        if (!project.ok())
            return project.failureAs<QList<QStringList>>();
        const QDir rounds(project.value->artifactDir + QStringLiteral("/attempts/%1/rounds").arg(iteration));
        for (const QString &name : rounds.entryList({QStringLiteral("*.json")}, QDir::Files)) {
            bool ok = false;
            const int k = QFileInfo(name).completeBaseName().toInt(&ok);
            QFile file(rounds.filePath(name));
            if (!ok || !file.open(QIODevice::ReadOnly))
                continue;
            QStringList batch;
            for (const QJsonValue &v : QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("batch")).toArray())
                batch.append(v.toString());
            byRound.insert(k, batch);
        }
    }
    if (byRound.isEmpty())
        return Batches::failure(
            QStringLiteral("iteration %1 has no recorded batches (it was not run as a live round here)").arg(iteration));
    QList<QStringList> out;
    for (auto it = byRound.constBegin(); it != byRound.constEnd(); ++it) {
        if (it.key() != out.size())
            return Batches::failure(
                QStringLiteral("iteration %1: the batch of round %2 is missing").arg(iteration).arg(out.size() + 1));
        out.append(it.value());
    }
    return Batches::success(out);
}

QString script(const IterationInfo &info, const QList<QStringList> &batches, const QString &origin)
{
    QJsonArray rows;
    for (const QStringList &b : batches)
        rows.append(QJsonArray::fromStringList(b));
    QString rowsText;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        rowsText += QStringLiteral("    ") + QString::fromUtf8(QJsonDocument(rows.at(i).toArray()).toJson(QJsonDocument::Compact))
                    + (i + 1 < rows.size() ? QStringLiteral(",\n") : QStringLiteral("\n"));
    }
    QString s;
    s += QStringLiteral("// Recorded policy: replays the batches of iteration %1 (%2), round by round.\n")
             .arg(info.number.value_or(info.id))
             .arg(origin);
    s += QStringLiteral("// In another world it keeps the recorded ids that are legal there.\n");
    s += QStringLiteral("var batches = [\n%1];\n\n").arg(rowsText);
    if (info.grid) {
        s += QStringLiteral("function planGrid(context) {\n"
                            "    return { branches: %1, refinements: %2, reason: \"the grid of iteration %3\" };\n"
                            "}\n\n")
                 .arg(info.grid->branches)
                 .arg(info.grid->refinements)
                 .arg(info.number.value_or(info.id));
    }
    s += QStringLiteral("function selectBatch(state) {\n"
                        "    if (state.round >= batches.length)\n"
                        "        return [];\n"
                        "    var legal = {};\n"
                        "    for (var i = 0; i < state.legal.length; ++i)\n"
                        "        legal[state.legal[i]] = true;\n"
                        "    var batch = [];\n"
                        "    var recorded = batches[state.round];\n"
                        "    for (var j = 0; j < recorded.length && batch.length < state.maxParallelism; ++j) {\n"
                        "        if (legal[recorded[j]] === true)\n"
                        "            batch.push(recorded[j]);\n"
                        "    }\n"
                        "    return batch;\n"
                        "}\n");
    return s;
}

} // namespace dreamrsi::RecordedPolicy
