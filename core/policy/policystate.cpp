#include "policystate.h"

#include <algorithm>

namespace dreamrsi {

QStringList PolicyState::legalIds() const
{
    QStringList ids;
    ids.reserve(m_legal.size());
    for (const CellMeta &m : m_legal)
        ids.append(m.id);
    return ids;
}

QStringList PolicyState::legalRootIds() const
{
    QStringList ids;
    for (const CellMeta &m : m_legal) {
        if (m.attempt == 0)
            ids.append(m.id);
    }
    return ids;
}

void PolicyState::indexObserved() const
{
    for (; m_observedIndexed < m_observed.size(); ++m_observedIndexed)
        m_observedIndex.insert(m_observed.at(m_observedIndexed).meta.id, int(m_observedIndexed));
}

const CellMeta *PolicyState::meta(const QString &id) const
{
    indexObserved();
    if (const int i = m_observedIndex.value(id, -1); i >= 0)
        return &m_observed.at(i).meta;
    if (!m_legalIndexed) {
        m_legalIndex.clear();
        for (int i = 0; i < m_legal.size(); ++i)
            m_legalIndex.insert(m_legal.at(i).id, i);
        m_legalIndexed = true;
    }
    if (const int i = m_legalIndex.value(id, -1); i >= 0)
        return &m_legal.at(i);
    return nullptr;
}

const Observation *PolicyState::observation(const QString &id) const
{
    indexObserved();
    const int i = m_observedIndex.value(id, -1);
    return i >= 0 ? &m_observed.at(i) : nullptr;
}

void PolicyState::reset(double beta, int maxParallelism, std::optional<double> baselineScore)
{
    m_round = 0;
    m_beta = beta;
    m_maxParallelism = maxParallelism;
    m_baselineScore = baselineScore;
    m_steering = {};
    m_observed.clear();
    m_legal.clear();
    m_openedBranches.clear();
    m_observedIndex.clear();
    m_observedIndexed = 0;
    m_legalIndex.clear();
    m_legalIndexed = false;
}

void PolicyState::appendObservation(const Observation &observation)
{
    appendObservation(Observation(observation));
}

void PolicyState::appendObservation(Observation &&observation)
{
    const int branch = observation.meta.branch;
    m_observed.append(std::move(observation));
    const auto it = std::lower_bound(m_openedBranches.begin(), m_openedBranches.end(), branch);
    if (it == m_openedBranches.end() || *it != branch)
        m_openedBranches.insert(it, branch);
}

void PolicyState::setLegal(QList<CellMeta> legal)
{
    m_legal = std::move(legal);
    m_legalIndexed = false;
}

} // namespace dreamrsi
