#pragma once

// A deterministic discovery agent for the round-runner tests, and the toy
// task folder (tests/data/loop/toy_task: VALUE = n scored by python3).

#include "agent/agent.h"

#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QString>
#include <QThread>

#include <atomic>
#include <condition_variable>
#include <mutex>

namespace dreamrsi::test {

#ifdef DREAMRSI_SOURCE_DIR
inline QString toyTaskDir()
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/loop/toy_task");
}
#endif

/// Writes `VALUE = parent + step` where step depends only on (branch,
/// attempt); ids in `failIds` fail as agent failures (an answer of text
/// without a program), ids in `evalFailIds`
/// write a program the evaluator rejects. Every call costs 100 + attempt
/// tokens in, 50 out, 0.001 USD. With a gate closed, calls wait until it
/// opens or the call is cancelled.
class FakeAgent final : public DiscoveryAgent
{
public:
    QSet<QString> failIds;
    QSet<QString> evalFailIds;
    std::atomic_int calls{0};
    std::atomic_int waiting{0};

    /// The direction hint and detail each cell id was asked for.
    QHash<QString, std::pair<QString, QString>> directions() const
    {
        std::lock_guard lock(m_mutex);
        return m_directions;
    }

    /// The researcher's hint each cell id was given (steered rounds), when it had one.
    QHash<QString, QString> hints() const
    {
        std::lock_guard lock(m_mutex);
        return m_hints;
    }

    QString kind() const override { return QStringLiteral("fake"); }
    QString model() const override { return QStringLiteral("fake-model"); }

    void closeGate()
    {
        std::lock_guard lock(m_mutex);
        m_open = false;
    }
    void openGate()
    {
        {
            std::lock_guard lock(m_mutex);
            m_open = true;
        }
        m_changed.notify_all();
    }

    static int valueOf(const QString &program)
    {
        static const QRegularExpression re(QStringLiteral("VALUE\\s*=\\s*(-?\\d+)"));
        const QRegularExpressionMatch m = re.match(program);
        return m.hasMatch() ? m.captured(1).toInt() : 0;
    }

    AgentOutcome propose(const AttemptContext &context, const std::atomic_bool &cancel) override
    {
        calls.fetch_add(1);
        {
            std::unique_lock lock(m_mutex);
            m_directions.insert(context.cellId, {context.directionHint, context.directionDetail});
            if (!context.researcherHint.isEmpty())
                m_hints.insert(context.cellId, context.researcherHint);
            waiting.fetch_add(1);
            while (!m_open && !cancel.load())
                m_changed.wait_for(lock, std::chrono::milliseconds(10));
            waiting.fetch_sub(1);
        }
        AgentUsage usage;
        usage.model = model();
        usage.tokensIn = 100 + context.attempt;
        usage.tokensOut = 50;
        usage.usd = 0.001;
        if (cancel.load()) {
            AgentOutcome o = AgentOutcome::failure(QStringLiteral("cancelled"), usage);
            o.cancelled = true;
            return o;
        }
        if (failIds.contains(context.cellId)) {
            // As a chat model's answer without a code block: text, no program.
            AgentOutcome o = AgentOutcome::failure(QStringLiteral("fake agent: no code block for %1").arg(context.cellId),
                                                   usage, QStringLiteral("asked for %1\n").arg(context.cellId));
            o.proposal = QStringLiteral("# %1\nNo program this time.\n").arg(context.cellId);
            return o;
        }
        const int parent = valueOf(context.parentProgram);
        const int step = (context.branch * 7 + context.attempt * 3) % 5 + 1;
        AgentOutcome o;
        o.ok = true;
        o.usage = usage;
        o.proposal = QStringLiteral("# %1\nAdd %2 to the parent's value (history: %3 attempts).\n")
                         .arg(context.cellId)
                         .arg(step)
                         .arg(context.history.size());
        o.program = evalFailIds.contains(context.cellId) ? QStringLiteral("FAIL\n")
                                                         : QStringLiteral("VALUE = %1\n").arg(parent + step);
        o.log = QStringLiteral("fake agent: %1 from parent value %2\n").arg(context.cellId).arg(parent);
        return o;
    }

private:
    mutable std::mutex m_mutex;
    QHash<QString, std::pair<QString, QString>> m_directions;
    QHash<QString, QString> m_hints;
    std::condition_variable m_changed;
    bool m_open = true;
};

} // namespace dreamrsi::test
