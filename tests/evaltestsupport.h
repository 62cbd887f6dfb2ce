#pragma once
// Helpers shared by the evaluator test suites (header-only, test code).

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>

#include <sys/types.h>

namespace evaltest {

inline QString dataPath(const QString &relative)
{
    return QString::fromUtf8(DREAMRSI_SOURCE_DIR) + QStringLiteral("/tests/data/eval/") + relative;
}

struct ProcessInfo
{
    int pid = 0;
    char state = '?';
    qint64 pgid = 0;
    uid_t uid = 0;
};

/// Every process of the system that is not a zombie, read from /proc.
inline QList<ProcessInfo> liveProcesses()
{
    QList<ProcessInfo> out;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool ok = false;
        const int pid = entry.toInt(&ok);
        if (!ok)
            continue;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        const QByteArray text = stat.readAll();
        const qsizetype close = text.lastIndexOf(')');
        if (close < 0)
            continue;
        const QList<QByteArray> fields = text.mid(close + 2).split(' ');
        if (fields.size() < 3)
            continue;
        ProcessInfo info;
        info.pid = pid;
        info.state = fields.at(0).isEmpty() ? '?' : fields.at(0).at(0);
        info.pgid = fields.at(2).toLongLong();
        QFile status(QStringLiteral("/proc/%1/status").arg(pid));
        if (status.open(QIODevice::ReadOnly)) {
            const QList<QByteArray> lines = status.readAll().split('\n');
            for (const QByteArray &line : lines) {
                if (line.startsWith("Uid:")) {
                    info.uid = uid_t(line.mid(4).simplified().split(' ').value(0).toUInt());
                    break;
                }
            }
        }
        if (info.state != 'Z' && info.state != 'X')
            out.append(info);
    }
    return out;
}

/// Live (non-zombie) members of a process group.
inline int liveMembers(qint64 pgid)
{
    int count = 0;
    for (const ProcessInfo &p : liveProcesses())
        count += p.pgid == pgid ? 1 : 0;
    return count;
}

/// Live processes owned by `uid`.
inline int liveProcessesOf(uid_t uid)
{
    int count = 0;
    for (const ProcessInfo &p : liveProcesses())
        count += p.uid == uid ? 1 : 0;
    return count;
}

} // namespace evaltest
