#include "dreamer.h"

#include "model/splitmix64.h"

#include "model/treejson.h"
#include "project/policyresolution.h"
#include "project/projectpolicies.h"
#include "project/versionreplay.h"
#include "project/projectworlds.h"
#include "project/valuationworlds.h"
#include "store/projectstore.h"

#include <QDir>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include <algorithm>
#include <limits>

namespace dreamrsi {

namespace {

/// Fills value or error of `d` from its replay result.
void judge(DevelopedVersion &d)
{
    if (!d.result)
        return;
    if (!d.result->ok())
        d.error = d.result->firstError();
    else if (!d.result->value)
        d.error = QStringLiteral("no world could score it (every world has S = 0)");
    else
        d.value = d.result->value;
}

/// A few traced episodes of `output`, worst worlds first (a world with an
/// error or no value counts as the worst), from each world the episode with
/// the lowest attainment (an episode with an error first).
QList<TracedEpisode> pickTraces(const ReplayProcessOutput &output, int count)
{
    QList<const SweepResult *> order;
    for (const SweepResult &s : output.result.worlds)
        order.append(&s);
    auto rank = [](const SweepResult *s) {
        return !s->ok() || !s->value ? -std::numeric_limits<double>::infinity() : *s->value;
    };
    std::stable_sort(order.begin(), order.end(), [&](const SweepResult *a, const SweepResult *b) { return rank(a) < rank(b); });
    QList<TracedEpisode> picked;
    for (const SweepResult *s : order) {
        if (picked.size() >= count)
            break;
        const EpisodeResult *worst = nullptr;
        for (const EpisodeResult &e : s->episodes) {
            if (!worst || (!e.ok() && worst->ok()) || (e.ok() == worst->ok() && e.attainment < worst->attainment))
                worst = &e;
        }
        if (!worst)
            continue;
        for (qsizetype i = 0; i < output.traces.size() && i < output.traceWorlds.size(); ++i) {
            if (output.traceWorlds.at(i) == s->world && output.traces.at(i).beta == worst->beta) {
                picked.append(TracedEpisode{s->world, output.traces.at(i)});
                break;
            }
        }
    }
    return picked;
}

/// FNV-1a, 64 bits: a fingerprint of what a policy did, not a secret.
class Fingerprint
{
public:
    void add(const QByteArray &bytes)
    {
        for (const char c : bytes) {
            m_h ^= quint64(quint8(c));
            m_h *= 0x100000001B3ull;
        }
        m_h ^= 0xFF; // a separator no UTF-8 byte of an id equals
        m_h *= 0x100000001B3ull;
    }
    void add(const QString &text) { add(text.toUtf8()); }
    void add(double x) { add(QByteArray::number(x, 'g', 17)); }
    void add(quint64 x) { add(QByteArray::number(x)); }
    quint64 value() const { return m_h; }

private:
    quint64 m_h = 0xCBF29CE484222325ull;
};

/// What a replay's policy did, as two fingerprints: every episode's batches
/// (round by round) with its world, β and error; and the same over the
/// episodes at `deployedBeta` only (none when the grid lacks that β).
/// Without traces, an episode's reveal order and round count stand in.
struct Behaviours
{
    std::optional<quint64> all;
    std::optional<quint64> deployed;
};

quint64 episodeFingerprint(const QString &world, const EpisodeResult &e)
{
    Fingerprint f;
    f.add(world);
    f.add(e.beta);
    if (!e.trace.isEmpty()) {
        for (const RoundTrace &r : e.trace) {
            f.add(r.batch.join(QChar(0x1F)));
            f.add(r.error);
        }
    } else {
        f.add(e.revealed.join(QChar(0x1F)));
        f.add(quint64(e.rounds));
    }
    f.add(e.error);
    return f.value();
}

Behaviours behavioursOf(const ReplayProcessOutput &output, double deployedBeta)
{
    Fingerprint all, deployed;
    int episodes = 0, atBeta = 0;
    auto take = [&](const QString &world, const EpisodeResult &e) {
        const quint64 h = episodeFingerprint(world, e);
        all.add(h);
        ++episodes;
        if (e.beta == deployedBeta) {
            deployed.add(h);
            ++atBeta;
        }
    };
    if (!output.traces.isEmpty()) {
        for (qsizetype i = 0; i < output.traces.size(); ++i)
            take(output.traceWorlds.value(i), output.traces.at(i));
    } else {
        for (const SweepResult &s : output.result.worlds) {
            for (const EpisodeResult &e : s.episodes)
                take(s.world, e);
        }
    }
    Behaviours b;
    if (episodes > 0)
        b.all = all.value();
    if (atBeta > 0)
        b.deployed = deployed.value();
    return b;
}

} // namespace

Dreamer::Dreamer(ProjectStore *store, std::shared_ptr<PolicyDeveloper> developer, QObject *parent)
    : QObject(parent)
    , m_developer(std::move(developer))
    , m_store(store)
{
}

void Dreamer::cancel()
{
    m_cancel.store(true);
}

std::optional<double> FloorCheck::worstAttainment(const ReplayResult &result, double beta)
{
    const qsizetype c = std::max(1, result.completions);
    std::optional<double> worst;
    for (qsizetype first = 0; first < result.worlds.size(); first += c) {
        double sum = 0.0;
        int n = 0;
        for (qsizetype k = first; k < std::min(first + c, result.worlds.size()); ++k) {
            const SweepResult &s = result.worlds.at(k);
            const EpisodeResult *nearest = s.episodeNearest(beta);
            if (!s.scorable || !s.ok() || !nearest)
                continue;
            sum += nearest->attainment;
            ++n;
        }
        if (n > 0 && (!worst || sum / n < *worst))
            worst = sum / n;
    }
    return worst;
}

int FloorCheck::choose(const QList<DreamVersion> &versions, double floor, double beta, QStringList *refused,
                       bool *repair)
{
    const auto keeps = [&](int i) {
        const DevelopedVersion &d = versions.at(i).developed;
        if (!d.result || !d.error.isEmpty() || !d.value)
            return false;
        const std::optional<double> worst = worstAttainment(*d.result, beta);
        return worst && *worst >= floor;
    };
    const bool deployedKeeps = !versions.isEmpty() && keeps(0);
    if (repair)
        *repair = !deployedKeeps;
    const std::optional<double> deployedValue = versions.isEmpty() || !versions.first().developed.error.isEmpty()
                                                    ? std::nullopt
                                                    : versions.first().developed.value;
    // The versions other than the deployed one, best mean value first (ties: the earlier).
    QList<int> order;
    for (qsizetype i = 1; i < versions.size(); ++i) {
        const DevelopedVersion &d = versions.at(i).developed;
        if (d.value && d.error.isEmpty())
            order.append(int(i));
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return *versions.at(a).developed.value > *versions.at(b).developed.value; });
    for (const int i : std::as_const(order)) {
        // While the deployed version keeps the floor, only a version that
        // leads it may take its place.
        if (deployedKeeps && deployedValue && !(*versions.at(i).developed.value > *deployedValue))
            break;
        if (keeps(i))
            return i;
        if (refused)
            refused->append(versions.at(i).developed.version.name);
    }
    return 0;
}

int Dreamer::bestByMeanValue(const QList<DreamVersion> &versions)
{
    int best = -1;
    for (qsizetype i = 0; i < versions.size(); ++i) {
        const DevelopedVersion &d = versions.at(i).developed;
        if (d.value && d.error.isEmpty() && (best < 0 || *d.value > *versions.at(best).developed.value))
            best = int(i);
    }
    return best;
}

StoreResult<PolicyVersion> Dreamer::deployedVersion(ProjectStore &store)
{
    const Result<ResolvedPolicy> deployed = PolicyResolution::resolve(store, PolicyChoice::latestApproved());
    if (!deployed.ok())
        return deployed.failureAs<PolicyVersion>();
    return StoreResult<PolicyVersion>::success(deployed.value->version);
}

StoreResult<QList<DreamWorld>> Dreamer::finishedWorlds(ProjectStore &store, bool includeApproximate,
                                                       int *approximateLeftOut)
{
    if (approximateLeftOut)
        *approximateLeftOut = 0;
    const StoreResult<QList<IterationInfo>> iterations = store.iterations().result();
    if (!iterations.ok())
        return StoreResult<QList<DreamWorld>>::failure(iterations.error);
    // The project layer decides which iterations are worlds and their names,
    // so a dream scores versions over the same worlds as the window and the CLI.
    const QList<IterationInfo> replayWorlds = ProjectWorlds::replayWorldsOf(*iterations.value);
    const QStringList names = ProjectWorlds::namesOf(replayWorlds);
    QList<DreamWorld> worlds;
    for (qsizetype i = 0; i < replayWorlds.size(); ++i) {
        const IterationInfo &it = replayWorlds.at(i);
        // Approximate worlds (docs/tree-format.md#imported-runs) only when asked; the names stay the same.
        if (!ValuationWorlds::valuedOver(it.treeMeta(), includeApproximate)) {
            if (approximateLeftOut)
                ++*approximateLeftOut;
            continue;
        }
        StoreResult<DiscoveryTree> tree = store.loadIteration(it.id).result();
        if (!tree.ok())
            return StoreResult<QList<DreamWorld>>::failure(tree.error);
        worlds.append(DreamWorld{it.id, ReplayWorld{names.at(i), std::make_shared<const DiscoveryTree>(std::move(*tree.value))}});
    }
    return StoreResult<QList<DreamWorld>>::success(worlds);
}

namespace {

/// One dream, in named phases: the replay configuration, the worlds a
/// version is valued over, version 0 (the deployed one), each new version,
/// and the proposal. Every replay is a VersionReplay job.
class DreamRun
{
public:
    DreamRun(Dreamer &dreamer, ProjectStore *store, PolicyDeveloper &developer, std::atomic_bool &cancel,
             const QList<DreamWorld> &worlds, const DreamSettings &settings, bool persist)
        : m_dreamer(dreamer)
        , m_store(store)
        , m_developer(developer)
        , m_cancel(cancel)
        , m_worlds(worlds)
        , m_settings(settings)
        , m_persist(persist)
    {
    }

    DreamReport dream(const PolicyVersion &given, int firstNumber)
    {
        if (!configure() || !collectHistory())
            return m_report;
        if (!prepare(valued()))
            return m_report;
        switch (replayDeployed(given)) {
        case Step::Next:
            break;
        case Step::Finish:
            return finish();
        case Step::Stop:
            return m_report;
        }
        int nextNumber = firstFreeNumber(firstNumber);
        const int total = m_settings.versions;
        for (int m = 0; m + 1 < total; ++m) {
            if (m_cancel.load())
                return finish();
            const Step step = developVersion(m, nextNumber);
            if (step == Step::Finish)
                return finish();
            if (step == Step::Stop)
                return m_report;
        }
        return finish();
    }

private:
    /// Where a phase leaves the dream: go on, propose among what is done, or
    /// stop with the report's error.
    enum class Step { Next, Finish, Stop };

    /// The worlds a version is valued over (ValuationWorlds: the history as
    /// revealed, C completions of each world, or the oracle's complete
    /// worlds), drawn once for the whole dream, so every version meets the
    /// same imagined worlds, and written once for the replay children.
    struct WorldSet
    {
        ValuationWorlds valuation;
        QStringList paths;              ///< the files a replay child reads
        QString stem;                   ///< the files' names: <stem><index>.json
        bool ready = false;
        const QList<ReplayWorld> &worlds() const { return valuation.worlds; }
        int completions() const { return valuation.completions; }
    };

    bool fail(const QString &error)
    {
        m_report.error = error;
        return false;
    }

    /// The settings source: the project's one replay configuration, with the
    /// caller's explicit overrides for this dream only. A dream in memory
    /// (the counterfactual loop) has no project: the defaults, overridden.
    bool configure()
    {
        if (m_worlds.isEmpty())
            return fail(QStringLiteral("the project has no finished iteration to dream in"));
        if (m_settings.versions < 1)
            return fail(QStringLiteral("the number of versions must be at least 1 (got %1)").arg(m_settings.versions));
        ReplayConfig projectDefaults;
        if (m_persist) {
            const StoreResult<StoredReplayConfig> stored = m_store->replayConfig().result();
            if (!stored.ok())
                return fail(stored.error);
            projectDefaults = stored.value->config;
        }
        m_config = m_settings.replay.applyTo(projectDefaults);
        m_report.config = m_config;
        m_report.overridden = !(m_config == projectDefaults);
        if (m_config.betas.isEmpty())
            return fail(QStringLiteral("the β grid is empty"));
        // A dream in memory (the counterfactual loop) has no project: its
        // configuration is its caller's, not a project's to override.
        emit m_dreamer.message(QStringLiteral("replay configuration: %1%2")
                                   .arg(m_config.label(),
                                        !m_persist ? QStringLiteral(" (this dream's; no project)")
                                        : m_report.overridden
                                            ? QStringLiteral(" (overrides the project's %1 for this dream)").arg(projectDefaults.label())
                                            : QStringLiteral(" (the project's)")));
        m_oracle = !m_settings.oracleWorlds.isEmpty();
        if (m_oracle && m_settings.oracleWorlds.size() != m_worlds.size())
            return fail(QStringLiteral("the oracle valuation needs one complete world per history world (%1 for %2)")
                            .arg(m_settings.oracleWorlds.size())
                            .arg(m_worlds.size()));
        m_report.oracle = m_oracle;
        m_imaginedValuation = !m_oracle && m_config.valuation == Valuation::Imagined;
        m_imaginedSet.stem = QStringLiteral("imagined");
        m_revealedSet.stem = QStringLiteral("world");
        m_oracleSet.stem = QStringLiteral("oracle");
        m_probeSet.stem = QStringLiteral("probe");
        m_secondSet.stem = QStringLiteral("second");
        return true;
    }

    bool collectHistory()
    {
        if (!m_settings.inProcess && !m_dir.isValid())
            return fail(QStringLiteral("cannot create a temporary folder for the worlds: %1").arg(m_dir.errorString()));
        for (const DreamWorld &w : m_worlds) {
            if (!w.world.tree)
                return fail(QStringLiteral("world %1 holds no tree").arg(w.world.name));
            m_history.append(ProjectWorld{w.world.name, w.iteration, w.world.tree});
        }
        m_report.imagineSeed = m_settings.imagineSeed.value_or(m_settings.seed);
        return true;
    }

    WorldSet &valued() { return m_oracle ? m_oracleSet : m_imaginedValuation ? m_imaginedSet : m_revealedSet; }
    WorldSet &other() { return m_imaginedValuation ? m_revealedSet : m_imaginedSet; }

    /// Draws (imagined) or takes (revealed) the worlds of `set`, and for a
    /// child replay writes them to disk once: every replay reads the same files.
    bool prepare(WorldSet &set)
    {
        if (set.ready)
            return true;
        if (&set == &m_imaginedSet) {
            const int completions = ValuationWorlds::completionsOf(m_config, ValuationWorlds::Kind::Imagined);
            Result<ValuationWorlds> imagined = ValuationWorlds::imagined(m_history, completions, m_report.imagineSeed,
                                                                         m_settings.imagineThreads, m_config.rule);
            if (!imagined)
                return fail(imagined.error);
            m_report.model = imagined.value->models.toJson();
            set.valuation = std::move(*imagined.value);
            emit m_dreamer.message(QStringLiteral("imagined %1 completions of each of %2 worlds (seed %3)")
                                       .arg(set.completions())
                                       .arg(m_worlds.size())
                                       .arg(m_report.imagineSeed));
        } else if (&set == &m_secondSet) {
            const int completions = ValuationWorlds::completionsOf(m_config, ValuationWorlds::Kind::Imagined);
            Result<ValuationWorlds> imagined = ValuationWorlds::imagined(m_history, completions, m_report.check.secondSeed,
                                                                         m_settings.imagineThreads, m_config.rule);
            if (!imagined)
                return fail(imagined.error);
            set.valuation = std::move(*imagined.value);
        } else if (&set == &m_oracleSet) {
            Result<ValuationWorlds> oracle = ValuationWorlds::oracle(m_history, m_settings.oracleWorlds);
            if (!oracle)
                return fail(oracle.error);
            set.valuation = std::move(*oracle.value);
            emit m_dreamer.message(QStringLiteral("oracle valuation: the %1 complete worlds behind the history").arg(set.worlds().size()));
        } else if (&set == &m_probeSet) {
            // The first world of each history world in the valued set: every
            // world once, cheap enough to ask of each tunable.
            const ValuationWorlds &v = valued().valuation;
            set.valuation = ValuationWorlds::revealed(v.history);
            set.valuation.worlds = v.firstOfEach();
        } else {
            set.valuation = ValuationWorlds::revealed(m_history);
        }
        for (qsizetype i = 0; i < set.worlds().size() && !m_settings.inProcess; ++i) {
            const QString path = m_dir.filePath(QStringLiteral("%1%2.json").arg(set.stem).arg(i));
            const Result<Done> written = TreeJson::writeFile(*set.worlds().at(i).tree, path);
            if (!written)
                return fail(QStringLiteral("cannot write world %1: %2").arg(set.worlds().at(i).name, written.error));
            set.paths.append(path);
        }
        set.ready = true;
        return true;
    }

    /// Replays `v` in `set` (once per world set and code: a version met
    /// again — the deployed one as a proposal — reuses its replay). Every
    /// episode is traced, for the developer's next step.
    SandboxedReplayOutcome replay(const PolicyVersion &v, const WorldSet &set)
    {
        const QString builtin = ProjectPolicies::processArgumentFor(v);
        const QString key = set.stem + QString::number(set.completions()) + QLatin1Char(':') + (builtin.isEmpty() ? v.code : builtin);
        if (const auto it = m_cache.constFind(key); it != m_cache.cend())
            return *it;
        VersionReplayJob job;
        job.version = v;
        job.worlds = set.worlds();
        job.worldPaths = set.paths;
        job.config = m_config;
        if (&set == &m_probeSet)
            job.config.betas = {m_report.deployedBeta};
        job.completions = set.completions();
        job.options.trace = true;
        job.limits = m_settings.limits;
        job.where = m_settings.inProcess ? VersionReplayJob::Where::InProcess : VersionReplayJob::Where::ChildProcess;
        job.program = m_settings.program;
        SandboxedReplayOutcome outcome =
            VersionReplay::run(job, [this](int done, int all) { emit m_dreamer.replayProgress(done, all); }, &m_cancel);
        if (outcome.output) {
            auto named = std::make_shared<ReplayProcessOutput>(*outcome.output);
            named->result.policy = v.name;
            outcome.output = std::move(named);
        }
        if (!outcome.cancelled)
            m_cache.insert(key, outcome);
        return outcome;
    }

    /// Stores a version's results over `set` (or its error for every world and β).
    bool storeResults(DevelopedVersion &d, const SandboxedReplayOutcome *outcome, const WorldSet &set)
    {
        QList<ReplayResultRecord> records;
        if (outcome && outcome->output) {
            auto result = std::make_shared<ReplayResult>(outcome->output->result);
            result->policy = d.version.name;
            d.result = result;
            judge(d);
            records = set.valuation.recordsOf(*result, d.version.id);
        } else {
            if (outcome && !outcome->error.isEmpty())
                d.error = QStringLiteral("replay failed: %1").arg(outcome->error);
            records = set.valuation.errorRecords(d.version.id, m_config, d.error);
        }
        if (!m_persist)
            return true;
        const StoreResult<Done> stored = m_store->storeReplayResults(records).result();
        if (!stored.ok())
            return fail(QStringLiteral("cannot store the results of %1: %2").arg(d.version.name, stored.error));
        return true;
    }

    /// Sets the number of the dream's valuation on `v` from its judged value.
    void noteValue(DreamVersion &v) const
    {
        (m_imaginedValuation ? v.imaginedValue : v.revealedValue) =
            v.developed.error.isEmpty() ? v.developed.value : std::nullopt;
    }

    /// The other valuation's number of version `index`: replayed and stored
    /// like the dream's own, without changing how the version is judged.
    void valueOtherwise(int index)
    {
        DreamVersion &v = m_report.versions[index];
        if (!m_settings.bothValuations || !v.developed.error.isEmpty() || !v.developed.value || m_cancel.load())
            return;
        if (!prepare(other()))
            return;
        const SandboxedReplayOutcome o = replay(v.developed.version, other());
        if (o.cancelled)
            return;
        DevelopedVersion judged = v.developed;
        judged.error.clear();
        judged.value.reset();
        if (!storeResults(judged, &o, other()))
            return;
        (m_imaginedValuation ? v.revealedValue : v.imaginedValue) = judged.error.isEmpty() ? judged.value : std::nullopt;
    }

    static QString valueText(const DevelopedVersion &d)
    {
        return d.error.isEmpty() ? QStringLiteral("mean value %1").arg(QString::number(*d.value, 'g', 6))
                                 : QStringLiteral("failed: %1").arg(d.error);
    }

    /// The proposal: the best mean value, with both valuations' numbers of
    /// it and of the deployed version.
    DreamReport finish()
    {
        m_report.cancelled = m_cancel.load();
        m_report.candidates = m_memory.candidates;
        m_report.screened = m_memory.screened;
        m_report.proposed = Dreamer::bestByMeanValue(m_report.versions);
        if (m_report.proposed >= 0 && m_settings.floorCheck && !m_report.cancelled)
            checkFloor();
        if (m_report.proposed > 0 && m_imaginedValuation && m_settings.noiseCheck && !m_report.cancelled
            && !m_report.floor.repair)
            checkNoise();
        if (!m_report.versions.isEmpty())
            valueOtherwise(0);
        if (m_report.proposed > 0)
            valueOtherwise(m_report.proposed);
        if (m_report.floor.measured && (!m_report.floor.passed || m_report.floor.repair))
            emit m_dreamer.message(m_report.floor.verdict);
        if (const DreamVersion *p = m_report.proposal(); p && m_report.proposed > 0)
            emit m_dreamer.message(QStringLiteral("proposed: %1 (mean value %2)%3")
                                       .arg(p->developed.version.name, QString::number(*p->developed.value, 'g', 6),
                                            m_report.check.measured ? QStringLiteral("; ") + m_report.check.verdict : QString()));
        else if (p)
            emit m_dreamer.message(QStringLiteral("nothing better than the deployed version %1 (mean value %2)%3")
                                       .arg(p->developed.version.name, QString::number(*p->developed.value, 'g', 6),
                                            m_report.check.measured ? QStringLiteral("; ") + m_report.check.verdict : QString()));
        else
            emit m_dreamer.message(QStringLiteral("no version scored; nothing to propose"));
        return m_report;
    }

    /// The value of `v` over the second seed's completions, without storing
    /// it (its records would take the place of the dream's own).
    std::optional<double> secondValue(const DevelopedVersion &v)
    {
        const SandboxedReplayOutcome o = replay(v.version, m_secondSet);
        if (o.cancelled || !o.output)
            return std::nullopt;
        DevelopedVersion judged;
        judged.result = std::make_shared<ReplayResult>(o.output->result);
        judge(judged);
        return judged.error.isEmpty() ? judged.value : std::nullopt;
    }

    /// The version whose hardest world sets the floor: the settings', else
    /// the project's first approved version, else the deployed one.
    PolicyVersion floorVersion() const
    {
        if (m_settings.floorVersion)
            return *m_settings.floorVersion;
        const PolicyVersion &deployed = m_report.versions.at(0).developed.version;
        if (!m_persist)
            return deployed;
        const StoreResult<QList<Approval>> approvals = m_store->approvals().result();
        const StoreResult<QList<PolicyVersion>> versions = m_store->policyVersions().result();
        if (!approvals.ok() || !versions.ok())
            return deployed;
        const Approval *first = nullptr;
        for (const Approval &a : *approvals.value) {
            if (!first || a.id < first->id)
                first = &a;
        }
        for (const PolicyVersion &v : *versions.value) {
            if (first && v.id == first->version)
                return v;
        }
        return deployed;
    }

    /// The floor check (FloorCheck): a leader that does worse than the floor
    /// version on its hardest history world gives way to the best-valued
    /// version that does not; a deployed version below the floor gives way
    /// to the best-valued version that keeps it (a repair).
    void checkFloor()
    {
        FloorCheck &f = m_report.floor;
        // Copies: the floor version may join m_report.versions below.
        const DevelopedVersion deployed = m_report.versions.at(0).developed;
        const DevelopedVersion leader = m_report.versions.at(m_report.proposed).developed;
        const PolicyVersion floorAt = floorVersion();
        f.floorVersion = floorAt.name;
        f.beta = m_report.deployedBeta;
        f.candidate = leader.version.name;
        if (leader.result)
            f.candidateWorst = FloorCheck::worstAttainment(*leader.result, f.beta);
        if (deployed.result)
            f.deployedWorst = FloorCheck::worstAttainment(*deployed.result, f.beta);
        ReplayResultPtr floorResult;
        SandboxedReplayOutcome floorOutcome;
        const bool floorDeployed = floorAt.name == deployed.version.name && floorAt.code == deployed.version.code;
        if (floorDeployed) {
            floorResult = deployed.result;
        } else {
            floorOutcome = replay(floorAt, valued());
            if (floorOutcome.cancelled)
                return;
            if (floorOutcome.output)
                floorResult = std::make_shared<ReplayResult>(floorOutcome.output->result);
        }
        f.measured = true;
        if (floorResult)
            f.floor = FloorCheck::worstAttainment(*floorResult, f.beta);
        const auto number = [](const std::optional<double> &v) { return v ? QString::number(*v, 'g', 3) : QStringLiteral("none"); };
        if (!f.floor) {
            f.verdict = QStringLiteral("%1 reaches no attainment on these worlds: no floor to keep").arg(f.floorVersion);
            return;
        }
        int chosen = FloorCheck::choose(m_report.versions, *f.floor, f.beta, &f.refused, &f.repair);
        // A deployed version below the floor that no dreamed version can
        // replace gives way to the floor version itself, which keeps its
        // own floor: it joins the dream's versions as the proposal.
        if (f.repair && chosen == 0 && !floorDeployed) {
            DreamVersion v;
            v.index = int(m_report.versions.size());
            v.developer = QStringLiteral("floor");
            v.developed.version = floorAt;
            if (!storeResults(v.developed, &floorOutcome, valued()))
                return;
            if (v.developed.value && v.developed.error.isEmpty()) {
                noteValue(v);
                m_report.versions.append(v);
                emit m_dreamer.versionReady(v);
                chosen = v.index;
            }
        }
        f.passed = chosen == m_report.proposed;
        if (chosen > 0)
            f.chosen = m_report.versions.at(chosen).developed.version.name;
        const QString floorText = QStringLiteral("the floor %1 (%2's hardest world at β %3)")
                                      .arg(number(f.floor), f.floorVersion, number(f.beta));
        const QString chosenName = m_report.versions.at(chosen).developed.version.name;
        if (f.repair) {
            const bool floorItself = chosen > 0 && m_report.versions.at(chosen).developer == QLatin1String("floor");
            f.verdict = QStringLiteral("the deployed version %1 reaches %2 on its hardest world, below %3: %4")
                            .arg(deployed.version.name, number(f.deployedWorst), floorText,
                                 floorItself ? QStringLiteral("no dreamed version keeps it; %1 itself is proposed in its place").arg(chosenName)
                                 : chosen > 0 ? QStringLiteral("%1, the best version that keeps it, is proposed in its place").arg(chosenName)
                                              : QStringLiteral("no version keeps it"));
        } else if (f.passed) {
            f.verdict = QStringLiteral("%1 reaches %2 on its hardest world: keeps %3")
                            .arg(f.candidate, number(f.candidateWorst), floorText);
        } else {
            f.verdict = QStringLiteral("%1 reaches %2 on its hardest world, below %3: not proposed; %4")
                            .arg(f.candidate, number(f.candidateWorst), floorText,
                                 chosen > 0 ? QStringLiteral("%1 keeps it").arg(chosenName)
                                            : QStringLiteral("no version that leads %1 keeps it").arg(deployed.version.name));
        }
        m_report.proposed = chosen;
    }

    /// The noise check of the leading candidate (ProposalCheck): its lead and
    /// the deployed version's value under a second completion seed. A lead
    /// inside the noise proposes the deployed version (nothing better).
    void checkNoise()
    {
        ProposalCheck &c = m_report.check;
        const DevelopedVersion &deployed = m_report.versions.at(0).developed;
        const DevelopedVersion &best = m_report.versions.at(m_report.proposed).developed;
        c.measured = true;
        c.candidate = best.version.name;
        c.deployed = deployed.version.name;
        c.lead = *best.value - (deployed.value && deployed.error.isEmpty() ? *deployed.value : 0.0);
        c.secondSeed = SplitMix64::mix(m_report.imagineSeed);
        if (!deployed.value || !deployed.error.isEmpty()) {
            c.verdict = QStringLiteral("the deployed version %1 has no value; nothing to measure the lead against").arg(c.deployed);
            return;
        }
        if (!prepare(m_secondSet))
            return;
        const std::optional<double> second0 = secondValue(deployed);
        const std::optional<double> secondBest = second0 ? secondValue(best) : std::nullopt;
        const auto number = [](double v) { return QString::number(v, 'g', 3); };
        if (!second0 || !secondBest) {
            c.passed = false;
            c.verdict = QStringLiteral("%1 could not be valued under the second seed %2: not proposed")
                            .arg(second0 ? c.candidate : c.deployed)
                            .arg(c.secondSeed);
        } else {
            c.noise = std::abs(*deployed.value - *second0);
            c.secondLead = *secondBest - *second0;
            c.passed = ProposalCheck::beatsNoise(c.lead, *c.noise, *c.secondLead);
            c.verdict = QStringLiteral("%1 leads %2 by %3 (noise %4: %2 moved that much between two completion seeds); "
                                       "under the second seed by %5: %6")
                            .arg(c.candidate, c.deployed, number(c.lead), number(*c.noise), number(*c.secondLead),
                                 c.passed ? QStringLiteral("beats the noise")
                                          : QStringLiteral("inside the noise, not proposed"));
        }
        if (!c.passed)
            m_report.proposed = 0;
    }

    /// Version 0: the deployed one (the project's, or `given` in memory, or
    /// the settings' `deployed`).
    Step replayDeployed(const PolicyVersion &given)
    {
        const int total = m_settings.versions;
        emit m_dreamer.stepStarted(0, total);
        const StoreResult<PolicyVersion> deployed = m_settings.deployed ? StoreResult<PolicyVersion>::success(*m_settings.deployed)
                                                    : m_persist ? Dreamer::deployedVersion(*m_store)
                                                                : StoreResult<PolicyVersion>::success(given);
        if (!deployed.ok()) {
            fail(deployed.error);
            return Step::Stop;
        }
        emit m_dreamer.message(QStringLiteral("version 0/%1: %2 (deployed), replaying on %3 worlds × %4 β")
                                   .arg(total - 1)
                                   .arg(deployed.value->name)
                                   .arg(m_worlds.size())
                                   .arg(m_config.betas.size()));
        DreamVersion v0;
        v0.index = 0;
        v0.developer = QStringLiteral("deployed");
        v0.developed.version = *deployed.value;
        m_report.deployedBeta = m_settings.deployedBeta.value_or(0.5);
        if (!m_settings.deployedBeta) {
            // The round deploys at the script's defaultBeta unless told otherwise.
            if (const Result<std::unique_ptr<Policy>> made = ProjectPolicies::specFor(v0.developed.version, m_settings.limits).create())
                m_report.deployedBeta = (*made.value)->defaultBeta().value_or(0.5);
        }
        const SandboxedReplayOutcome outcome = replay(v0.developed.version, valued());
        if (outcome.cancelled)
            return Step::Finish;
        m_outputs.insert(0, outcome.output);
        if (!storeResults(v0.developed, &outcome, valued()))
            return Step::Stop;
        noteValue(v0);
        m_report.versions.append(v0);
        emit m_dreamer.versionReady(v0);
        emit m_dreamer.message(QStringLiteral("version 0: %1").arg(valueText(v0.developed)));
        return Step::Next;
    }

    /// The stored version whose script is `code` (the oldest), if any.
    std::optional<PolicyVersion> storedWithCode(const QString &code) const
    {
        const StoreResult<QList<PolicyVersion>> all = m_store->policyVersions().result();
        for (const PolicyVersion &v : all.value.value_or(QList<PolicyVersion>())) {
            if (v.code == code)
                return v;
        }
        return std::nullopt;
    }

    /// Names of new versions: v<N>, above every stored vN.
    int firstFreeNumber(int firstNumber) const
    {
        int next = firstNumber;
        if (!m_persist)
            return next;
        static const QRegularExpression vn(QStringLiteral("^v(\\d+)$"));
        const StoreResult<QList<PolicyVersion>> all = m_store->policyVersions().result();
        for (const PolicyVersion &v : all.value.value_or(QList<PolicyVersion>())) {
            const QRegularExpressionMatch m = vn.match(v.name);
            if (m.hasMatch())
                next = std::max(next, m.captured(1).toInt() + 1);
        }
        return next;
    }

    /// What the developer is shown for step `m`: the current version, the
    /// ones before it, traces of its worst worlds, the configuration and the
    /// history's statistics; candidates it tries are replayed like versions.
    DevelopmentContext contextFor(int m)
    {
        DevelopmentContext context;
        context.step = m;
        context.current = m_report.versions.at(m).developed;
        for (int h = 0; h < m; ++h)
            context.history.append(m_report.versions.at(h).developed);
        if (const auto out = m_outputs.value(m))
            context.traces = pickTraces(*out, m_settings.traceEpisodes);
        context.workers = m_config.workers;
        context.lambda = m_config.lambda;
        context.betas = m_config.betas;
        context.worldCount = int(m_worlds.size());
        context.seed = m_settings.seed;
        QList<const DiscoveryTree *> trees;
        for (const DreamWorld &w : m_worlds)
            trees.append(w.world.tree.get());
        context.worldStats = computeHistoryStats(trees);
        context.deployedBeta = m_report.deployedBeta;
        context.memory = &m_memory;
        context.evaluate = [this](const QString &code, const std::atomic_bool &) {
            PolicyVersion candidate;
            candidate.name = QStringLiteral("candidate");
            candidate.code = code;
            const SandboxedReplayOutcome o = replay(candidate, valued());
            CandidateScore score;
            score.cancelled = o.cancelled;
            if (!o.output)
                score.error = o.error;
            else if (!o.output->result.ok())
                score.error = o.output->result.firstError();
            else if (!o.output->result.value)
                score.error = QStringLiteral("no world could score it");
            else
                score.value = o.output->result.value;
            if (o.output) {
                const Behaviours b = behavioursOf(*o.output, m_report.deployedBeta);
                score.behaviour = b.all;
                score.deployedBehaviour = b.deployed;
            }
            return score;
        };
        context.deployedBehaviour = [this](const QString &code, const std::atomic_bool &) -> std::optional<quint64> {
            if (!prepare(valued()) || !prepare(m_probeSet))
                return std::nullopt;
            PolicyVersion candidate;
            candidate.name = QStringLiteral("probe");
            candidate.code = code;
            const SandboxedReplayOutcome o = replay(candidate, m_probeSet);
            if (!o.output)
                return std::nullopt;
            return behavioursOf(*o.output, m_report.deployedBeta).deployed;
        };
        return context;
    }

    /// New version m + 1: asks the developer, stores the version the moment
    /// it exists, replays and stores its results.
    Step developVersion(int m, int &nextNumber)
    {
        const int index = m + 1;
        const int total = m_settings.versions;
        emit m_dreamer.stepStarted(index, total);
        emit m_dreamer.message(QStringLiteral("version %1/%2: asking %3").arg(index).arg(total - 1).arg(m_developer.kind()));
        const DevelopmentOutcome developed = m_developer.develop(contextFor(m), m_cancel);
        if (developed.cancelled || m_cancel.load())
            return Step::Finish;

        DreamVersion dv;
        dv.index = index;
        dv.developer = developed.model.isEmpty() ? m_developer.kind() : developed.model;
        dv.usage = developed.usage;
        for (const int c : developed.candidates) {
            if (c >= 0 && c < m_memory.candidates.size())
                dv.candidates.append(m_memory.candidates.at(c));
        }
        PolicyVersion &pv = dv.developed.version;
        pv.name = QStringLiteral("v%1").arg(nextNumber++);
        pv.code = developed.code;
        pv.origin = developed.origin;
        const int base = developed.baseIndex >= 0 && developed.baseIndex <= m ? developed.baseIndex : m;
        pv.parent = m_report.versions.at(base).developed.version.id;
        pv.prompt = developed.prompt;
        pv.response = developed.response;
        pv.created = QDateTime::currentDateTimeUtc();
        if (m_persist) {
            // A script the project already holds is that stored version, not a
            // new one: identical candidates are not stored twice (an earlier
            // dream's, or the deployed script handed back unchanged).
            const std::optional<PolicyVersion> same = developed.ok ? storedWithCode(pv.code) : std::nullopt;
            if (same) {
                emit m_dreamer.message(QStringLiteral("version %1: the script of stored version %2, not stored again")
                                           .arg(index)
                                           .arg(same->name));
                --nextNumber;
                pv = *same;
            } else {
                const StoreResult<PolicyVersionId> id = m_store->addPolicyVersion(pv).result();
                if (!id.ok()) {
                    fail(QStringLiteral("cannot store version %1: %2").arg(pv.name, id.error));
                    return Step::Stop;
                }
                pv.id = *id.value;
            }
        } else {
            pv.id = nextNumber - 1; // in memory: the version's number is its id
        }

        if (!developed.ok) {
            dv.developed.error = developed.error.isEmpty() ? QStringLiteral("the developer returned no script") : developed.error;
            emit m_dreamer.message(
                QStringLiteral("version %1 (%2): no script: %3").arg(index).arg(pv.name, dv.developed.error));
            if (!storeResults(dv.developed, nullptr, valued()))
                return Step::Stop;
        } else {
            emit m_dreamer.message(QStringLiteral("version %1 (%2): replaying on %3 worlds × %4 β")
                                       .arg(index)
                                       .arg(pv.name)
                                       .arg(m_worlds.size())
                                       .arg(m_config.betas.size()));
            const SandboxedReplayOutcome o = replay(pv, valued());
            if (o.cancelled) {
                // Stored without results: a later dream or replay can judge it.
                m_report.versions.append(dv);
                return Step::Finish;
            }
            m_outputs.insert(index, o.output);
            if (!storeResults(dv.developed, &o, valued()))
                return Step::Stop;
            noteValue(dv);
            emit m_dreamer.message(QStringLiteral("version %1 (%2): %3").arg(index).arg(pv.name, valueText(dv.developed)));
        }
        m_report.versions.append(dv);
        emit m_dreamer.versionReady(dv);
        return Step::Next;
    }

    Dreamer &m_dreamer;
    ProjectStore *m_store;
    PolicyDeveloper &m_developer;
    std::atomic_bool &m_cancel;
    const QList<DreamWorld> &m_worlds;
    const DreamSettings &m_settings;
    const bool m_persist;

    DreamReport m_report;
    ReplayConfig m_config;
    bool m_imaginedValuation = false;
    QList<ProjectWorld> m_history;
    QTemporaryDir m_dir;
    WorldSet m_revealedSet;
    WorldSet m_imaginedSet;
    WorldSet m_oracleSet;
    WorldSet m_probeSet;                ///< one world per history world, the deployed β: which tunables act
    WorldSet m_secondSet;               ///< completions under a second seed: the noise check (never stored)
    bool m_oracle = false;
    DreamMemory m_memory;               ///< the developer's candidates, from step to step
    QHash<QString, SandboxedReplayOutcome> m_cache; ///< by world set and script
    QHash<int, std::shared_ptr<const ReplayProcessOutput>> m_outputs; ///< by version index, for traces
};

} // namespace

DreamReport Dreamer::run(const QList<DreamWorld> &worlds, const DreamSettings &settings)
{
    return dream(worlds, settings, PolicyVersion(), 1, true);
}

DreamReport Dreamer::runInMemory(const QList<DreamWorld> &worlds, const DreamSettings &settings, const PolicyVersion &deployed,
                                 int firstNumber)
{
    return dream(worlds, settings, deployed, firstNumber, false);
}

DreamReport Dreamer::dream(const QList<DreamWorld> &worlds, const DreamSettings &settings, const PolicyVersion &given,
                           int firstNumber, bool persist)
{
    if ((persist && !m_store) || !m_developer) {
        DreamReport report;
        report.error = QStringLiteral("dreaming needs an open project and a policy developer");
        return report;
    }
    DreamRun run(*this, m_store, *m_developer, m_cancel, worlds, settings, persist);
    return run.dream(given, firstNumber);
}

} // namespace dreamrsi
