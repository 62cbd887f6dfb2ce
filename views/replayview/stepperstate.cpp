#include "stepperstate.h"

#include <algorithm>

namespace dreamrsi {

StepperState::StepperState(std::shared_ptr<const DiscoveryTree> tree, std::shared_ptr<const EpisodeResult> episode)
    : m_tree(std::move(tree))
    , m_episode(std::move(episode))
{
    if (!m_tree || !m_episode)
        return;
    m_revealRound = QList<int>(m_tree->cellCount(), -1);
    for (const RoundTrace &r : m_episode->trace) {
        if (r.revealed.isEmpty())
            continue;
        const int step = int(m_rounds.size());
        m_rounds.append(&r);
        for (const RevealedCell &c : r.revealed) {
            const int idx = m_tree->indexOfId(c.id);
            if (idx >= 0)
                m_revealRound[idx] = step;
        }
    }
}

bool StepperState::stepForward()
{
    if (atEnd())
        return false;
    ++m_position;
    return true;
}

bool StepperState::stepBack()
{
    if (atStart())
        return false;
    --m_position;
    return true;
}

void StepperState::seek(int position)
{
    m_position = std::clamp(position, 0, roundCount());
}

QStringList StepperState::revealedIds() const
{
    QStringList ids;
    for (int i = 0; i < m_position; ++i) {
        for (const RevealedCell &c : m_rounds.at(i)->revealed)
            ids.append(c.id);
    }
    return ids;
}

QStringList StepperState::latestBatch() const
{
    return m_position > 0 ? m_rounds.at(m_position - 1)->batch : QStringList();
}

int StepperState::calls() const
{
    int n = 0;
    for (int i = 0; i < m_position; ++i)
        n += int(m_rounds.at(i)->revealed.size());
    return n;
}

double StepperState::attainment() const
{
    const int n = calls();
    if (!m_episode || n == 0 || n > m_episode->curve.size())
        return 0.0;
    return m_episode->curve.at(n - 1).attainment;
}

RevealOverlay StepperState::overlay() const
{
    RevealOverlay o;
    if (!isValid())
        return o;
    o.revealRound = m_revealRound;
    o.roundsShown = m_position;
    return o;
}

} // namespace dreamrsi
