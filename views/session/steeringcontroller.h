#pragma once

#include "loop/round/steeringinbox.h"

#include <QHash>
#include <QObject>
#include <QString>

class QTimer;

namespace dreamrsi {

/// The workbench's side of steering (docs/steering.md): sends requests to
/// the inbox beside the open project, for the round this workbench runs or
/// the round or waiting loop another process runs there, and reports each
/// answer. Nothing blocks: requests are files renamed into place, answers
/// are looked for by a timer while any request waits. A request nobody can
/// answer any more (the process ended) is taken back and reported refused.
class SteeringController final : public QObject
{
    Q_OBJECT
public:
    explicit SteeringController(QObject *parent = nullptr);
    ~SteeringController() override;

    /// The project whose inbox requests go to; requests still waiting for
    /// another project are taken back.
    void setProjectPath(const QString &path);
    QString projectPath() const { return m_path; }

    /// Drops `request` in the inbox for a process of live kind `kind`
    /// ("round", or "approval" for a loop waiting for approval). A failure
    /// when nobody accepts such requests there or the inbox cannot be
    /// written; the answer comes later through answered().
    /// The request's id when it was written.
    Result<QString> send(SteeringRequest request, const QString &kind = QStringLiteral("round"));
    /// Requests sent and not answered yet.
    int waiting() const { return int(m_waiting.size()); }
    /// How often answers are looked for (ms).
    void setInterval(int ms);

signals:
    /// The running process answered (applied, or refused with the reason),
    /// or the request was taken back because nobody will answer it.
    void answered(const dreamrsi::SteeringRequest &request, const dreamrsi::SteeringAck &ack);

private:
    void poll();
    void withdrawAll(const QString &why);

    struct Waiting
    {
        SteeringRequest request;
        QString kind;
        int polls = 0;
    };
    QString m_path;
    QHash<QString, Waiting> m_waiting; ///< by request id
    QTimer *m_timer = nullptr;
};

} // namespace dreamrsi
