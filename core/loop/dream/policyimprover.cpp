// The built-in policy improver (docs/online.md#dreaming): one step, from the
// base and the learned script through its candidates to the one it proposes;
// its rules are policyimprover_p.h's.
#include "policyimprover.h"

#include "policyimprover_p.h"

#include <QSet>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>

namespace dreamrsi {

using namespace ImproverRules;

PolicyImprover::PolicyImprover(int candidates)
    : m_candidates(std::max(1, candidates))
{
}

QString PolicyImprover::kind() const
{
    return QStringLiteral("builtin-improver");
}

namespace {

/// One step of the improver: the base, the learned script, the candidates
/// and what they scored. Every candidate goes through `tryCandidate`, which
/// values a behaviour once per dream and replaces what changes nothing at the
/// deployed β.
class ImproverStep
{
public:
    ImproverStep(const DevelopmentContext &context, const std::atomic_bool &cancel, int candidates, DreamMemory &memory)
        : m_context(context)
        , m_cancel(cancel)
        , m_target(candidates)
        , m_memory(memory)
        , m_rng(context.seed ^ (quint64(context.step + 1) * 0xD1B54A32D192ED03ull))
    {
    }

    DevelopmentOutcome run();

private:
    enum class Tried { New, Wasted, Skipped, Cancelled };

    const DevelopedVersion &chooseBase(QList<DevelopedVersion> &seen, int *index) const;
    Tried tryCandidate(const QString &code, const QString &kind, const QString &why, const QList<TunableChange> &changes);
    /// Whether `code` does at the deployed β, on the cheap probe, what the
    /// start script or an earlier candidate already does: then it is not
    /// worth a full replay.
    bool screenedOut(const QString &code);
    /// The tunables of the start script that change what it does at the
    /// deployed β (one step up or down), checked once per start script.
    QList<PolicyTunable> actingTunables();
    // The steps of run(), in order; a step that returns false was cancelled
    // (`outcome` says so).
    QString promptOf(const DevelopedVersion &base, const QList<PolicyTunable> &tunables, const Learned &learned) const;
    /// The start script's behaviour at the deployed β: the learned script's
    /// own replay when it is new, else the base's.
    bool takeReference(const Learned &learned, const QString &baseCode, DevelopmentOutcome &outcome);
    /// What the history suggests (ImproverRules::proposals).
    bool tryProposals(DevelopmentOutcome &outcome);
    /// Random steps of one or two of the tunables that act.
    bool tryRandomSteps(QList<PolicyTunable> &acting, DevelopmentOutcome &outcome);
    /// The best candidate proposed, or why there is none, with the report.
    DevelopmentOutcome finished(const DevelopedVersion &base, DevelopmentOutcome &outcome);
    int replayLimit() const { return m_target * 3; } ///< replays per step, wasted ones included
    bool cancelled(DevelopmentOutcome &outcome) const
    {
        if (!m_cancel.load() && !m_wasCancelled)
            return false;
        outcome.cancelled = true;
        outcome.error = QStringLiteral("cancelled");
        return true;
    }

    const DevelopmentContext &m_context;
    const std::atomic_bool &m_cancel;
    const int m_target;
    DreamMemory &m_memory;
    Random m_rng;

    QString m_baseName;
    QString m_startCode;
    std::optional<quint64> m_startDeployed; ///< the start script's behaviour at the deployed β
    CandidateScore m_lastScore;              ///< what the last candidate scored
    QList<int> m_candidates;
    QStringList m_report;
    std::optional<double> m_bestValue;
    QString m_bestCode, m_bestChange;
    int m_bestIndex = -1;
    QString m_firstError;
    int m_counted = 0;                       ///< candidates with a new behaviour that acts
    int m_replays = 0;
    bool m_wasCancelled = false;
};

const DevelopedVersion &ImproverStep::chooseBase(QList<DevelopedVersion> &seen, int *index) const
{
    // The best clean version so far; version m when none is clean.
    qsizetype baseIndex = seen.size() - 1;
    for (qsizetype i = 0; i < seen.size(); ++i) {
        const DevelopedVersion &v = seen.at(i);
        const DevelopedVersion &b = seen.at(baseIndex);
        if (v.value && v.error.isEmpty() && (!b.value || !b.error.isEmpty() || *v.value > *b.value))
            baseIndex = i;
    }
    if (seen.at(baseIndex).version.code.trimmed().isEmpty()) {
        for (qsizetype i = 0; i < seen.size(); ++i) {
            if (!seen.at(i).version.code.trimmed().isEmpty()) {
                baseIndex = i;
                break;
            }
        }
    }
    *index = int(baseIndex);
    return seen.at(baseIndex);
}

ImproverStep::Tried ImproverStep::tryCandidate(const QString &code, const QString &kind, const QString &why,
                                               const QList<TunableChange> &changes)
{
    if (m_memory.codes.contains(code))
        return Tried::Skipped;
    m_memory.codes.insert(code);
    ++m_replays;
    const CandidateScore score = m_context.evaluate(code, m_cancel);
    m_lastScore = score;
    if (score.cancelled || m_cancel.load()) {
        m_wasCancelled = true;
        return Tried::Cancelled;
    }
    CandidateRecord record;
    record.index = int(m_memory.candidates.size());
    record.parent = m_baseName;
    record.code = code;
    record.kind = kind;
    record.why = why;
    record.changes = changes;
    record.value = score.value;
    record.error = score.error;
    const int index = int(m_memory.candidates.size());
    const QString what = changes.isEmpty() ? why : QStringLiteral("%1 (%2)").arg(changesText(changes), why);
    bool wasted = false;
    if (score.behaviour && m_memory.behaviours.contains(*score.behaviour)) {
        record.duplicate = true;
        record.duplicateOf = m_memory.behaviours.value(*score.behaviour);
        m_report << (record.duplicateOf >= 0
                         ? QStringLiteral("- %1: the same behaviour as candidate %2, replaced").arg(what).arg(record.duplicateOf + 1)
                         : QStringLiteral("- %1: the same behaviour as a version of this dream, replaced").arg(what));
        wasted = true;
    } else {
        if (score.behaviour)
            m_memory.behaviours.insert(*score.behaviour, index);
        if (kind != QLatin1String("learned") && m_startDeployed && score.deployedBehaviour && *score.deployedBehaviour == *m_startDeployed) {
            record.inertAtDeployedBeta = true;
            for (const TunableChange &c : changes)
                m_memory.inertTunables.insert(c.name);
            m_report << QStringLiteral("- %1: changes nothing at the deployed β %2, replaced").arg(what).arg(m_context.deployedBeta);
            wasted = true;
        }
    }
    if (!wasted) {
        if (!score.value) {
            if (m_firstError.isEmpty())
                m_firstError = score.error;
            m_report << QStringLiteral("- %1: failed: %2").arg(what, score.error);
        } else {
            m_report << QStringLiteral("- %1: mean value %2").arg(what, formatValue(score.value));
            if (!m_bestValue || *score.value > *m_bestValue) {
                m_bestValue = score.value;
                m_bestCode = code;
                m_bestChange = what;
                m_bestIndex = index;
            }
        }
        ++m_counted;
    }
    m_memory.candidates.append(record);
    m_candidates.append(index);
    return wasted ? Tried::Wasted : Tried::New;
}

bool ImproverStep::screenedOut(const QString &code)
{
    if (!m_context.deployedBehaviour || m_memory.codes.contains(code))
        return false;
    const std::optional<quint64> b = m_context.deployedBehaviour(code, m_cancel);
    if (!b || m_cancel.load())
        return false;
    if (m_memory.probed.contains(*b)) {
        m_memory.codes.insert(code);
        ++m_memory.screened;
        return true;
    }
    m_memory.probed.insert(*b);
    return false;
}

QList<PolicyTunable> ImproverStep::actingTunables()
{
    QList<PolicyTunable> all;
    for (const PolicyTunable &t : PolicyTunables::parse(m_startCode)) {
        if (!m_memory.inertTunables.contains(t.name))
            all.append(t);
    }
    if (!m_context.deployedBehaviour)
        return all;
    if (const auto known = m_memory.actingByStart.constFind(m_startCode); known != m_memory.actingByStart.cend()) {
        QList<PolicyTunable> acting;
        for (const PolicyTunable &t : all) {
            if (known->contains(t.name))
                acting.append(t);
        }
        return acting;
    }
    const std::optional<quint64> start = m_context.deployedBehaviour(m_startCode, m_cancel);
    if (!start)
        return all;
    m_memory.probed.insert(*start);
    QList<PolicyTunable> acting;
    for (const PolicyTunable &t : all) {
        bool acts = false;
        for (const bool up : {true, false}) {
            const std::optional<double> v = neighbour(t, up);
            if (!v || m_cancel.load())
                continue;
            const std::optional<quint64> b = m_context.deployedBehaviour(PolicyTunables::withValue(m_startCode, t, *v), m_cancel);
            if (!b || *b != *start) {
                acts = true;
                break;
            }
        }
        if (acts)
            acting.append(t);
        else
            m_memory.inertTunables.insert(t.name);
    }
    if (!m_cancel.load()) {
        QStringList names;
        for (const PolicyTunable &t : acting)
            names << t.name;
        m_memory.actingByStart.insert(m_startCode, names);
    }
    return acting;
}

DevelopmentOutcome ImproverStep::run()
{
    DevelopmentOutcome outcome;
    outcome.origin = PolicyOrigin::Agent;
    outcome.model = QStringLiteral("builtin-improver");
    outcome.usage.model = outcome.model;
    outcome.usage.calls = 0;

    QList<DevelopedVersion> seen = m_context.history;
    seen.append(m_context.current);
    int baseIndex = 0;
    const DevelopedVersion &base = chooseBase(seen, &baseIndex);
    outcome.baseIndex = baseIndex;
    m_baseName = base.version.name;
    // The learned tables first; every candidate starts from that script.
    const Learned learned = learnTables(base.version.code, m_context.worldStats);
    m_startCode = learned.code;
    const QList<PolicyTunable> tunables = PolicyTunables::parse(m_startCode);
    outcome.prompt = promptOf(base, tunables, learned);
    if (tunables.isEmpty() && m_startCode == base.version.code) {
        outcome.error = QStringLiteral("%1 has no tunables for the built-in improver: it mutates top-level "
                                       "`const NAME = number;` lines (NAME in capitals), optionally annotated "
                                       "`// range [lo, hi]` or `// choice a|b|c`")
                            .arg(base.version.name);
        return outcome;
    }
    if (!m_context.evaluate) {
        outcome.error = QStringLiteral("the built-in improver needs a replay of its candidates, and none was given");
        return outcome;
    }

    // Every version of the dream is known: none is a candidate again, and
    // their behaviours count as seen.
    for (const DevelopedVersion &v : seen)
        m_memory.codes.insert(v.version.code);
    if (!takeReference(learned, base.version.code, outcome))
        return outcome;
    // Which tunables act at the deployed β (and the start's behaviour
    // there, against which candidates are screened).
    QList<PolicyTunable> acting = actingTunables();
    if (cancelled(outcome))
        return outcome;
    // What the history suggests, then random steps over the tunables that act.
    if (!tryProposals(outcome) || !tryRandomSteps(acting, outcome))
        return outcome;
    return finished(base, outcome);
}

QString ImproverStep::promptOf(const DevelopedVersion &base, const QList<PolicyTunable> &tunables, const Learned &learned) const
{
    QStringList prompt;
    prompt << QStringLiteral("Built-in policy improver, step %1, seed %2, deployed β %3.")
                  .arg(m_context.step)
                  .arg(m_context.seed)
                  .arg(m_context.deployedBeta);
    prompt << QStringLiteral("Base: %1 (mean value %2).").arg(base.version.name, formatValue(base.value));
    QStringList names;
    for (const PolicyTunable &t : tunables)
        names << QStringLiteral("%1=%2").arg(t.name, PolicyTunables::literal(t.value, t.integer));
    prompt << QStringLiteral("Tunables: %1.").arg(names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")));
    const HistoryStats &stats = m_context.worldStats;
    if (stats.isEmpty()) {
        prompt << QStringLiteral("History: no statistics.");
    } else {
        prompt << QStringLiteral("History: %1 worlds, %2 cells, %3 directions; longest stall before a gain %4, longest drought %5; "
                                 "refinements brought %6 of the gain.")
                      .arg(stats.worlds)
                      .arg(stats.cells)
                      .arg(stats.directions.size())
                      .arg(stats.longestStallBeforeGain)
                      .arg(stats.longestDroughtBeforeGain)
                      .arg(QString::number(refinementShare(stats), 'f', 3));
        prompt << QStringLiteral("Learned from it: %1.")
                      .arg(learned.changes.isEmpty() ? QStringLiteral("nothing the script can take") : learned.changes.join(QStringLiteral("; ")));
    }
    return prompt.join(QLatin1Char('\n'));
}

bool ImproverStep::takeReference(const Learned &learned, const QString &baseCode, DevelopmentOutcome &outcome)
{
    // The learned script as it is: the first candidate when it is new; else
    // the base's own behaviour is the reference (a replay the dreamer has cached).
    if (m_startCode != baseCode) {
        const Tried t = tryCandidate(m_startCode, QStringLiteral("learned"), learned.changes.join(QStringLiteral(", ")), {});
        if (t == Tried::Cancelled && cancelled(outcome))
            return false;
        if (t != Tried::Skipped) {
            m_startDeployed = m_lastScore.deployedBehaviour;
            return true;
        }
    }
    const CandidateScore reference = m_context.evaluate(m_startCode, m_cancel);
    if (reference.cancelled && cancelled(outcome))
        return false;
    m_startDeployed = reference.deployedBehaviour;
    if (reference.behaviour && !m_memory.behaviours.contains(*reference.behaviour))
        m_memory.behaviours.insert(*reference.behaviour, -1); // a version's behaviour, not a candidate's
    return true;
}

bool ImproverStep::tryProposals(DevelopmentOutcome &outcome)
{
    // At most half the candidates of a step; each kind once per dream.
    const QList<Proposal> asked = proposals(m_startCode, m_context.worldStats, m_context.deployedBeta, m_context.workers);
    int askedNow = 0;
    const int askedMax = std::max(1, m_target / 2);
    for (const Proposal &p : asked) {
        if (askedNow >= askedMax || m_counted >= m_target || m_replays >= replayLimit())
            break;
        if (m_memory.proposalsOffered.contains(p.key))
            continue;
        QList<TunableChange> changes;
        const QString code = withValues(m_startCode, p.values, &changes);
        if (code == m_startCode || m_memory.codes.contains(code))
            continue;
        m_memory.proposalsOffered.insert(p.key);
        if (screenedOut(code)) {
            m_report << QStringLiteral("- %1 (%2): does at the deployed β what another script of this dream does, not replayed")
                            .arg(changesText(changes), p.key);
            continue;
        }
        const Tried t = tryCandidate(code, QStringLiteral("proposal"), QStringLiteral("%1: %2").arg(p.key, p.why), changes);
        if (t == Tried::Cancelled && cancelled(outcome))
            return false;
        if (t == Tried::New)
            ++askedNow;
    }
    return true;
}

bool ImproverStep::tryRandomSteps(QList<PolicyTunable> &acting, DevelopmentOutcome &outcome)
{
    for (int attempt = 0; !acting.isEmpty() && m_counted < m_target && m_replays < replayLimit() && attempt < m_target * 8;
         ++attempt) {
        if (cancelled(outcome))
            return false;
        // One or two tunables, distinct, edited from the end of the file so
        // the literal offsets stay valid.
        const int changes = std::min<int>(int(acting.size()), 1 + m_rng.below(2));
        QList<int> picks;
        while (picks.size() < changes) {
            const int i = m_rng.below(int(acting.size()));
            if (!picks.contains(i))
                picks.append(i);
        }
        std::sort(picks.begin(), picks.end(), [&](int a, int b) { return acting.at(a).literalStart > acting.at(b).literalStart; });
        QString code = m_startCode;
        QList<TunableChange> change;
        for (const int i : picks) {
            const PolicyTunable &t = acting.at(i);
            const std::optional<double> v = mutate(t, m_rng);
            if (!v)
                continue;
            code = PolicyTunables::withValue(code, t, *v);
            change.prepend(TunableChange{t.name, t.value, *v, t.integer});
        }
        if (change.isEmpty() || m_memory.codes.contains(code) || screenedOut(code))
            continue;
        const Tried t = tryCandidate(code, QStringLiteral("random"), QStringLiteral("random step"), change);
        if (t == Tried::Cancelled && cancelled(outcome))
            return false;
        // What turned out inert leaves the pool.
        for (qsizetype i = acting.size() - 1; i >= 0; --i) {
            if (m_memory.inertTunables.contains(acting.at(i).name))
                acting.removeAt(i);
        }
    }
    return true;
}

DevelopmentOutcome ImproverStep::finished(const DevelopedVersion &base, DevelopmentOutcome &outcome)
{
    outcome.usage.calls = m_replays;
    outcome.candidates = m_candidates;

    QStringList response;
    response << QStringLiteral("Candidates replayed (%1, %2 with a new behaviour that acts at the deployed β):").arg(m_replays).arg(m_counted);
    response << m_report;
    if (m_bestCode.isEmpty()) {
        outcome.error = m_replays == 0 ? QStringLiteral("the built-in improver found no untried variant of %1").arg(base.version.name)
                        : m_counted == 0 ? QStringLiteral("every candidate of the built-in improver repeated a behaviour or changed nothing at the deployed β")
                                         : QStringLiteral("every candidate of the built-in improver failed; the first: %1").arg(m_firstError);
        response << outcome.error;
        outcome.response = response.join(QLatin1Char('\n'));
        return outcome;
    }
    m_memory.candidates[m_bestIndex].kept = true;
    const bool better = !base.value || *m_bestValue > *base.value;
    response << (better ? QStringLiteral("Kept %1 (mean value %2 > %3 of the base).")
                              .arg(m_bestChange, formatValue(m_bestValue), formatValue(base.value))
                        : QStringLiteral("No candidate beat the base (%1); the best one, %2 (%3), is proposed "
                                         "for the record and the next step climbs from the base again.")
                              .arg(formatValue(base.value), m_bestChange, formatValue(m_bestValue)));
    outcome.response = response.join(QLatin1Char('\n'));
    outcome.code = m_bestCode;
    outcome.ok = true;
    return outcome;
}

} // namespace

DevelopmentOutcome PolicyImprover::develop(const DevelopmentContext &context, const std::atomic_bool &cancel)
{
    DreamMemory own;
    DreamMemory &memory = context.memory ? *context.memory : own;
    ImproverStep step(context, cancel, m_candidates, memory);
    return step.run();
}

} // namespace dreamrsi
