#include "roundjournal.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

namespace dreamrsi {

QString RoundJournal::fileOf(int round) const
{
    return m_dir + QStringLiteral("/rounds/%1.json").arg(round);
}

Result<Done> RoundJournal::record(int round, const QStringList &batch) const
{
    QDir().mkpath(m_dir + QStringLiteral("/rounds"));
    QJsonObject o;
    o.insert(QStringLiteral("round"), round);
    o.insert(QStringLiteral("batch"), QJsonArray::fromStringList(batch));
    QSaveFile file(fileOf(round));
    const QByteArray bytes = QJsonDocument(o).toJson(QJsonDocument::Compact);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Result<Done>::failure(
            QStringLiteral("cannot record round %1 in '%2': %3").arg(round + 1).arg(file.fileName(), file.errorString()));
    return Result<Done>::success({});
}

QStringList RoundJournal::read(int round) const
{
    QStringList batch;
    QFile file(fileOf(round));
    if (file.open(QIODevice::ReadOnly)) {
        const QJsonArray ids = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("batch")).toArray();
        for (const QJsonValue &v : ids)
            batch.append(v.toString());
    }
    return batch;
}

int RoundJournal::lastRound(QStringList *batch) const
{
    int last = -1;
    const QStringList files = QDir(m_dir + QStringLiteral("/rounds")).entryList({QStringLiteral("*.json")}, QDir::Files);
    for (const QString &f : files) {
        bool ok = false;
        const int k = QFileInfo(f).completeBaseName().toInt(&ok);
        if (ok && k > last)
            last = k;
    }
    if (last >= 0)
        *batch += read(last);
    return last;
}

QList<QStringList> RoundJournal::batches() const
{
    QStringList last;
    const int n = lastRound(&last);
    QList<QStringList> out;
    for (int k = 0; k <= n; ++k)
        out.append(read(k));
    return out;
}

} // namespace dreamrsi
