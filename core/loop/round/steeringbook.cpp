#include "steeringbook.h"

#include "roundtree.h"

#include <algorithm>
#include <utility>

namespace dreamrsi {

namespace {

bool isBranchAction(const QString &action)
{
    return action == QLatin1String("close") || action == QLatin1String("refine") || action == QLatin1String("hint");
}

} // namespace

QString SteeringBook::check(const SteeringRequest &r, const RoundTree &tree) const
{
    if (r.action == QLatin1String("approve") || r.action == QLatin1String("decline"))
        return QStringLiteral("no approval is pending: the loop is running a round, not waiting after a dream");
    if (r.action == QLatin1String("batch"))
        return QStringLiteral("this round is not manual: its policy picks the batches");
    if (r.action == QLatin1String("pause"))
        return m_paused ? QStringLiteral("the round is already paused") : QString();
    if (r.action == QLatin1String("continue"))
        return m_paused ? QString() : QStringLiteral("the round is not paused");
    if (!isBranchAction(r.action))
        return QStringLiteral("unknown action '%1'").arg(r.action);
    if (r.action == QLatin1String("hint") && r.text.trimmed().isEmpty())
        return QStringLiteral("a hint needs a text");
    if (r.newBranch) {
        if (r.action != QLatin1String("hint"))
            return QStringLiteral("%1 needs a branch number; only hint takes 'new'").arg(r.action);
        const QList<int> opened = tree.openedBranches();
        if (int(opened.size()) + int(m_newHints.size()) >= tree.plan().branches)
            return QStringLiteral("no new branch is left to open in the %1-branch grid").arg(tree.plan().branches);
        return {};
    }
    if (!r.branch)
        return QStringLiteral("%1 needs a branch (a number or b<number>)").arg(r.action);
    const int b = *r.branch;
    const int top = tree.topAttempt(b);
    if (top < 0)
        return QStringLiteral("branch b%1 is not opened in this iteration").arg(b);
    if (m_closed.contains(b))
        return QStringLiteral("branch b%1 is already closed").arg(b);
    if (top + 1 > tree.plan().refinements || b >= tree.plan().branches)
        return QStringLiteral("branch b%1 is finished: its leaf %2 is the last the grid allows (%3 refinements)")
            .arg(b)
            .arg(RoundTree::idOf(b, top))
            .arg(tree.plan().refinements);
    if (r.action == QLatin1String("refine") && m_pins.contains(RoundTree::idOf(b, top + 1)))
        return QStringLiteral("branch b%1 is already pinned first in the next batch").arg(b);
    return {};
}

SteeringEvent SteeringBook::eventFor(const SteeringRequest &r, const RoundTree &tree, IterationId iteration,
                                     int round) const
{
    SteeringEvent e;
    e.iteration = iteration;
    e.round = round;
    e.time = QDateTime::currentDateTimeUtc();
    e.who = r.by;
    e.action = r.action;
    e.branch = r.branch;
    e.why = r.why;
    e.requestId = r.id;
    if (r.action == QLatin1String("hint"))
        e.text = r.text.trimmed();
    if (r.newBranch)
        e.target = QStringLiteral("new");
    else if (r.branch && (r.action == QLatin1String("refine") || r.action == QLatin1String("hint")))
        e.target = RoundTree::idOf(*r.branch, tree.topAttempt(*r.branch) + 1);
    return e;
}

void SteeringBook::apply(const SteeringEvent &e)
{
    if (e.action == QLatin1String("close") && e.branch) {
        m_closed.insert(*e.branch);
        m_pins.erase(std::remove_if(m_pins.begin(), m_pins.end(),
                                    [b = *e.branch](const QString &id) {
                                        int branch = 0;
                                        int attempt = 0;
                                        return RoundTree::parseId(id, &branch, &attempt) && branch == b;
                                    }),
                     m_pins.end());
    } else if (e.action == QLatin1String("refine") && !e.target.isEmpty()) {
        if (!m_pins.contains(e.target))
            m_pins.append(e.target);
    } else if (e.action == QLatin1String("hint")) {
        if (e.target == QLatin1String("new")) {
            m_newHints.append(e.text);
        } else if (!e.target.isEmpty()) {
            QString &hint = m_hints[e.target];
            hint = hint.isEmpty() ? e.text : hint + QLatin1Char('\n') + e.text;
        }
    } else if (e.action == QLatin1String("pause")) {
        m_paused = true;
    } else if (e.action == QLatin1String("continue")) {
        m_paused = false;
    }
}

QStringList SteeringBook::pins(const RoundTree &tree, int workers) const
{
    QSet<QString> legal;
    for (const CellMeta &m : tree.legal())
        legal.insert(m.id);
    QStringList out;
    for (const QString &id : m_pins) {
        int branch = 0;
        int attempt = 0;
        if (out.size() < workers && legal.contains(id) && RoundTree::parseId(id, &branch, &attempt)
            && !m_closed.contains(branch))
            out.append(id);
    }
    return out;
}

QList<CellMeta> SteeringBook::policyLegal(const QList<CellMeta> &legal, const QStringList &pins) const
{
    if (m_closed.isEmpty() && pins.isEmpty())
        return legal;
    QList<CellMeta> out;
    for (const CellMeta &m : legal) {
        if (!m_closed.contains(m.branch) && !pins.contains(m.id))
            out.append(m);
    }
    return out;
}

PolicySteering SteeringBook::view(const RoundTree &tree, const QStringList &pins) const
{
    PolicySteering s;
    s.closed = closedBranches();
    s.pinned = pins;
    QStringList targets = m_hints.keys();
    std::sort(targets.begin(), targets.end(), [](const QString &a, const QString &b) {
        int ba = 0, aa = 0, bb = 0, ab = 0;
        RoundTree::parseId(a, &ba, &aa);
        RoundTree::parseId(b, &bb, &ab);
        return ba != bb ? ba < bb : aa < ab;
    });
    for (const QString &id : std::as_const(targets)) {
        int branch = 0;
        int attempt = 0;
        if (!tree.contains(id) && RoundTree::parseId(id, &branch, &attempt) && !m_closed.contains(branch))
            s.hints.append(std::make_pair(QString::number(branch), m_hints.value(id)));
    }
    if (!m_newHints.isEmpty())
        s.hints.append(std::make_pair(QStringLiteral("new"), m_newHints.join(QLatin1Char('\n'))));
    return s;
}

void SteeringBook::noteBatch(const QStringList &batch)
{
    m_pins.clear();
    for (const QString &id : batch) {
        if (m_newHints.isEmpty())
            break;
        int branch = 0;
        int attempt = 0;
        if (RoundTree::parseId(id, &branch, &attempt) && attempt == 0 && !m_hints.contains(id))
            m_hints.insert(id, m_newHints.takeFirst());
    }
}

void SteeringBook::rebuild(const QList<SteeringEvent> &events, const QList<QStringList> &batches)
{
    *this = SteeringBook();
    int noted = 0; // batches [0, noted) are noted
    auto noteUpTo = [&](int round) {
        for (; noted < round && noted < batches.size(); ++noted)
            noteBatch(batches.at(noted));
    };
    for (const SteeringEvent &e : events) {
        noteUpTo(e.round.value_or(0));
        apply(e);
    }
    noteUpTo(int(batches.size()));
}

QList<int> SteeringBook::closedBranches() const
{
    QList<int> out = m_closed.values();
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace dreamrsi
