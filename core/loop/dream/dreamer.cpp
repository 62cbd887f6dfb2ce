#include "dreamer.h"

#include "imaginedhistory.h"
#include "replay/sandboxedreplay.h"

#include "model/treejson.h"
#include "policy/policyspec.h"
#include "replay/replayengine.h"
#include "policy/builtinpolicies.h"
#include "project/projectpolicies.h"
#include "project/projectscores.h"
#include "project/projectworlds.h"
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

const QString DeployedFallback = QStringLiteral("builtin:portfolio");

/// Error results for every world and β: how a version that could not be
/// replayed (no script, child killed) is stored with its error.
QList<ReplayResultRecord> errorRecords(PolicyVersionId version, const QList<DreamWorld> &worlds,
                                       const ReplayConfig &s, const QString &error, int completions)
{
    QList<ReplayResultRecord> records;
    for (const DreamWorld &w : worlds) {
        for (int k = 0; k < std::max(1, completions); ++k) {
            for (const double beta : s.betas) {
                ReplayResultRecord r;
                r.key.version = version;
                r.key.world = w.iteration;
                r.key.beta = beta;
                r.key.workers = s.workers;
                r.key.lambda = s.lambda;
                r.key.rounds = s.rounds;
                r.key.completions = completions;
                r.key.completion = completions > 0 ? k : 0;
                r.error = error;
                records.append(r);
            }
        }
    }
    return records;
}

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
    const StoreResult<QList<PolicyVersion>> versions = store.policyVersions().result();
    if (!versions.ok())
        return StoreResult<PolicyVersion>::failure(versions.error);
    const StoreResult<QList<Approval>> approvals = store.approvals().result();
    if (!approvals.ok())
        return StoreResult<PolicyVersion>::failure(approvals.error);
    if (!approvals.value->isEmpty()) {
        const Approval newest = *std::max_element(approvals.value->cbegin(), approvals.value->cend(),
                                                  [](const Approval &a, const Approval &b) { return a.id < b.id; });
        for (const PolicyVersion &v : *versions.value) {
            if (v.id == newest.version)
                return StoreResult<PolicyVersion>::success(v);
        }
        return StoreResult<PolicyVersion>::failure(
            QStringLiteral("the newest approval names policy version %1, which the project does not hold").arg(newest.version));
    }
    for (const PolicyVersion &v : *versions.value) {
        if (v.name == DeployedFallback)
            return StoreResult<PolicyVersion>::success(v);
    }
    PolicyVersion v;
    v.name = DeployedFallback;
    v.origin = PolicyOrigin::Builtin;
    v.code = BuiltinPolicies::javaScriptSource(DeployedFallback.mid(8));
    v.created = QDateTime::currentDateTimeUtc();
    const StoreResult<PolicyVersionId> id = store.addPolicyVersion(v).result();
    if (!id.ok())
        return StoreResult<PolicyVersion>::failure(id.error);
    v.id = *id.value;
    return StoreResult<PolicyVersion>::success(v);
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
        if (!includeApproximate && ProjectWorlds::isApproximate(it)) {
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
    DreamReport report;
    if ((persist && !m_store) || !m_developer) {
        report.error = QStringLiteral("dreaming needs an open project and a policy developer");
        return report;
    }
    if (worlds.isEmpty()) {
        report.error = QStringLiteral("the project has no finished iteration to dream in");
        return report;
    }
    if (settings.versions < 1) {
        report.error = QStringLiteral("the number of versions must be at least 1 (got %1)").arg(settings.versions);
        return report;
    }
    // The settings source: the project's one replay configuration, with the
    // caller's explicit overrides for this dream only. A dream in memory
    // (the counterfactual loop) has no project: the defaults, overridden.
    ReplayConfig projectDefaults;
    if (persist) {
        const StoreResult<StoredReplayConfig> stored = m_store->replayConfig().result();
        if (!stored.ok()) {
            report.error = stored.error;
            return report;
        }
        projectDefaults = stored.value->config;
    }
    const ReplayConfig config = settings.replay.applyTo(projectDefaults);
    report.config = config;
    report.overridden = !(config == projectDefaults);
    if (config.betas.isEmpty()) {
        report.error = QStringLiteral("the β grid is empty");
        return report;
    }
    emit message(QStringLiteral("replay configuration: %1%2")
                     .arg(config.label(), report.overridden ? QStringLiteral(" (overrides the project's %1 for this dream)")
                                                                  .arg(projectDefaults.label())
                                                            : QStringLiteral(" (the project's)")));
    const int total = settings.versions;

    // The worlds a version is valued over: the history as revealed, and (for
    // an imagined valuation, or the other number of the deployed version and
    // the proposal) C completions of each world drawn once for the whole
    // dream, so every version meets the same imagined worlds.
    QTemporaryDir dir;
    if (!settings.inProcess && !dir.isValid()) {
        report.error = QStringLiteral("cannot create a temporary folder for the worlds: %1").arg(dir.errorString());
        return report;
    }
    struct WorldSet
    {
        QList<ReplayWorld> worlds;
        QStringList paths;              ///< the files a replay child reads
        QHash<QString, int> indexOfName; ///< a world's name or path → index into worlds
        int completions = 0;            ///< C; 0 for the history as revealed
        bool ready = false;
    };
    WorldSet revealedSet;
    WorldSet imaginedSet;
    imaginedSet.completions = std::max(1, config.completions);
    QList<IterationId> iterations;
    QList<ReplayWorld> history;
    for (const DreamWorld &w : worlds) {
        if (!w.world.tree) {
            report.error = QStringLiteral("world %1 holds no tree").arg(w.world.name);
            return report;
        }
        iterations.append(w.iteration);
        history.append(w.world);
    }
    report.imagineSeed = settings.imagineSeed.value_or(settings.seed);
    auto prepare = [&](WorldSet &set, const QString &stem) -> bool {
        if (set.ready)
            return true;
        if (&set == &imaginedSet) {
            ImaginationOptions options;
            Result<ImaginedHistory> imagined =
                ImaginedHistories::imagine(history, report.imagineSeed, set.completions, options, settings.imagineThreads);
            if (!imagined) {
                report.error = imagined.error;
                return false;
            }
            report.model = imagined.value->model.toJson();
            set.worlds = std::move(imagined.value->completions);
            emit message(QStringLiteral("imagined %1 completions of each of %2 worlds (seed %3)")
                             .arg(set.completions)
                             .arg(worlds.size())
                             .arg(report.imagineSeed));
        } else {
            set.worlds = history;
        }
        for (qsizetype i = 0; i < set.worlds.size(); ++i) {
            set.indexOfName.insert(set.worlds.at(i).name, int(i));
            if (settings.inProcess)
                continue;
            // The worlds go to disk once; every replay child reads the same files.
            const QString path = dir.filePath(QStringLiteral("%1%2.json").arg(stem).arg(i));
            const Result<Done> written = TreeJson::writeFile(*set.worlds.at(i).tree, path);
            if (!written) {
                report.error = QStringLiteral("cannot write world %1: %2").arg(set.worlds.at(i).name, written.error);
                return false;
            }
            set.paths.append(path);
            set.indexOfName.insert(path, int(i));
        }
        set.ready = true;
        return true;
    };
    const bool imaginedValuation = config.valuation == Valuation::Imagined;
    WorldSet &valued = imaginedValuation ? imaginedSet : revealedSet;
    WorldSet &other = imaginedValuation ? revealedSet : imaginedSet;
    if (!prepare(valued, imaginedValuation ? QStringLiteral("imagined") : QStringLiteral("world")))
        return report;

    // In this process: the same replay the child runs (docs/replay.md's engine,
    // scripts under their time limit), every episode traced.
    auto replayHere = [&](const PolicyVersion &v, const WorldSet &set) -> SandboxedReplayOutcome {
        // How a version runs is the project's one rule (a built-in's unchanged code as its C++ twin).
        PolicySpec spec = ProjectPolicies::specFor(v, settings.scriptTimeLimitMs);
        Result<std::unique_ptr<Policy>> compiled = spec.create();
        SandboxedReplayOutcome outcome;
        if (!compiled) {
            const QString &error = compiled.error;
            // What the child reports for a script that does not compile: an
            // error in every world's result, so the version is judged failed.
            auto output = std::make_shared<ReplayProcessOutput>();
            output->result.policy = v.name;
            output->result.lambda = config.lambda;
            output->result.workers = config.workers;
            output->result.betas = config.betas;
            output->result.maxRounds = config.rounds;
            for (const ReplayWorld &w : set.worlds) {
                SweepResult sweep;
                sweep.world = w.name;
                sweep.error = error;
                output->result.worlds.append(sweep);
            }
            outcome.output = output;
            return outcome;
        }
        ReplayOptions options = ProjectScores::optionsFor(config);
        options.trace = true;
        auto output = std::make_shared<ReplayProcessOutput>();
        output->result = ReplayEngine::runWorlds(
            set.worlds, spec, options, [this](int done, int all) { emit replayProgress(done, all); }, &m_cancel, std::move(*compiled.value));
        if (m_cancel.load()) {
            outcome.cancelled = true;
            outcome.error = QStringLiteral("cancelled");
            return outcome;
        }
        for (const SweepResult &s : output->result.worlds) {
            for (const EpisodeResult &e : s.episodes) {
                output->traces.append(e);
                output->traceWorlds.append(s.world);
            }
        }
        output->result.policy = v.name;
        outcome.output = output;
        return outcome;
    };

    QHash<QString, SandboxedReplayOutcome> cache; // by world set and script
    auto replay = [&](const PolicyVersion &v, const WorldSet &set) -> SandboxedReplayOutcome {
        const QString builtin = ProjectPolicies::processArgumentFor(v);
        const QString key = QString::number(set.completions) + QLatin1Char(':') + (builtin.isEmpty() ? v.code : builtin);
        if (const auto it = cache.constFind(key); it != cache.cend())
            return *it;
        SandboxedReplayOutcome outcome;
        if (settings.inProcess) {
            outcome = replayHere(v, set);
        } else {
            ReplayProcessRequest request;
            request.worldPaths = set.paths;
            if (builtin.isEmpty())
                request.policySource = v.code;
            else
                request.policyArgument = builtin;
            request.workers = config.workers;
            request.lambda = config.lambda;
            request.betas = config.betas;
            request.maxRounds = config.rounds.value_or(0);
            request.scriptTimeLimitMs = settings.scriptTimeLimitMs;
            request.memoryLimitBytes = settings.memoryLimitBytes;
            request.wallLimitMs = settings.wallLimitMs;
            request.trace = true;
            request.program = settings.program;
            outcome = runSandboxedReplay(request, m_cancel, [this](int done, int all) { emit replayProgress(done, all); });
            if (outcome.output) {
                // Results name the worlds as the dream does, not by temporary path.
                auto renamed = std::make_shared<ReplayProcessOutput>(*outcome.output);
                for (SweepResult &s : renamed->result.worlds) {
                    if (const auto w = set.indexOfName.constFind(s.world); w != set.indexOfName.cend())
                        s.world = set.worlds.at(*w).name;
                }
                for (QString &name : renamed->traceWorlds) {
                    if (const auto w = set.indexOfName.constFind(name); w != set.indexOfName.cend())
                        name = set.worlds.at(*w).name;
                }
                renamed->result.policy = v.name;
                outcome.output = renamed;
            }
        }
        if (outcome.output && set.completions > 0) {
            auto marked = std::make_shared<ReplayProcessOutput>(*outcome.output);
            marked->result.completions = set.completions;
            outcome.output = marked;
        }
        if (!outcome.cancelled)
            cache.insert(key, outcome);
        return outcome;
    };

    // Stores a version's results over `set` (or its error for every world and β).
    auto storeResults = [&](DevelopedVersion &d, const SandboxedReplayOutcome *outcome, const WorldSet &set) -> bool {
        QList<ReplayResultRecord> records;
        if (outcome && outcome->output) {
            auto result = std::make_shared<ReplayResult>(outcome->output->result);
            result->policy = d.version.name;
            d.result = result;
            judge(d);
            if (set.completions > 0) {
                records = ProjectScores::recordsForCompletions(*result, d.version.id, iterations, set.completions);
            } else {
                for (const SweepResult &s : d.result->worlds) {
                    const int w = set.indexOfName.value(s.world, -1);
                    if (w < 0)
                        continue;
                    for (const EpisodeResult &e : s.episodes)
                        records.append(ProjectScores::recordOf(e, d.version.id, worlds.at(w).iteration, config.workers,
                                                               config.lambda, config.rounds));
                }
            }
        } else {
            if (outcome && !outcome->error.isEmpty())
                d.error = QStringLiteral("replay failed: %1").arg(outcome->error);
            records = errorRecords(d.version.id, worlds, config, d.error, set.completions);
        }
        if (!persist)
            return true;
        const StoreResult<Done> stored = m_store->storeReplayResults(records).result();
        if (!stored.ok()) {
            report.error = QStringLiteral("cannot store the results of %1: %2").arg(d.version.name, stored.error);
            return false;
        }
        return true;
    };
    // Sets the number of the dream's valuation on `v` from its judged value.
    auto noteValue = [&](DreamVersion &v) {
        (imaginedValuation ? v.imaginedValue : v.revealedValue) = v.developed.error.isEmpty() ? v.developed.value : std::nullopt;
    };
    // The other valuation's number of version `index`: replayed and stored
    // like the dream's own, without changing how the version is judged.
    auto valueOtherwise = [&](int index) {
        DreamVersion &v = report.versions[index];
        if (!settings.bothValuations || !v.developed.error.isEmpty() || !v.developed.value || m_cancel.load())
            return;
        if (!prepare(other, imaginedValuation ? QStringLiteral("world") : QStringLiteral("imagined")))
            return;
        const SandboxedReplayOutcome o = replay(v.developed.version, other);
        if (o.cancelled)
            return;
        DevelopedVersion judged = v.developed;
        judged.error.clear();
        judged.value.reset();
        if (!storeResults(judged, &o, other))
            return;
        (imaginedValuation ? v.revealedValue : v.imaginedValue) = judged.error.isEmpty() ? judged.value : std::nullopt;
    };

    auto finish = [&]() -> DreamReport {
        report.cancelled = m_cancel.load();
        report.proposed = bestByMeanValue(report.versions);
        if (!report.versions.isEmpty())
            valueOtherwise(0);
        if (report.proposed > 0)
            valueOtherwise(report.proposed);
        if (const DreamVersion *p = report.proposal())
            emit message(QStringLiteral("proposed: %1 (mean value %2)")
                             .arg(p->developed.version.name, QString::number(*p->developed.value, 'g', 6)));
        else
            emit message(QStringLiteral("no version scored; nothing to propose"));
        return report;
    };

    // Version 0: the deployed one.
    emit stepStarted(0, total);
    const StoreResult<PolicyVersion> deployed = persist ? deployedVersion(*m_store) : StoreResult<PolicyVersion>::success(given);
    if (!deployed.ok()) {
        report.error = deployed.error;
        return report;
    }
    emit message(QStringLiteral("version 0/%1: %2 (deployed), replaying on %3 worlds × %4 β")
                     .arg(total - 1)
                     .arg(deployed.value->name)
                     .arg(worlds.size())
                     .arg(config.betas.size()));
    DreamVersion v0;
    v0.index = 0;
    v0.developer = QStringLiteral("deployed");
    v0.developed.version = *deployed.value;
    SandboxedReplayOutcome outcome0 = replay(v0.developed.version, valued);
    if (outcome0.cancelled)
        return finish();
    QHash<int, std::shared_ptr<const ReplayProcessOutput>> outputs;
    outputs.insert(0, outcome0.output);
    if (!storeResults(v0.developed, &outcome0, valued))
        return report;
    noteValue(v0);
    report.versions.append(v0);
    emit versionReady(v0);
    emit message(QStringLiteral("version 0: %1").arg(v0.developed.error.isEmpty() ? QStringLiteral("mean value %1").arg(QString::number(*v0.developed.value, 'g', 6))
                                                                                 : QStringLiteral("failed: %1").arg(v0.developed.error)));

    // Names of new versions: v<N>, above every stored vN.
    int nextNumber = firstNumber;
    if (persist) {
        static const QRegularExpression vn(QStringLiteral("^v(\\d+)$"));
        const StoreResult<QList<PolicyVersion>> all = m_store->policyVersions().result();
        for (const PolicyVersion &v : all.value.value_or(QList<PolicyVersion>())) {
            const QRegularExpressionMatch m = vn.match(v.name);
            if (m.hasMatch())
                nextNumber = std::max(nextNumber, m.captured(1).toInt() + 1);
        }
    }

    for (int m = 0; m + 1 < total; ++m) {
        if (m_cancel.load())
            return finish();
        const int index = m + 1;
        emit stepStarted(index, total);
        emit message(QStringLiteral("version %1/%2: asking %3").arg(index).arg(total - 1).arg(m_developer->kind()));

        DevelopmentContext context;
        context.step = m;
        context.current = report.versions.at(m).developed;
        for (int h = 0; h < m; ++h)
            context.history.append(report.versions.at(h).developed);
        if (const auto out = outputs.value(m))
            context.traces = pickTraces(*out, settings.traceEpisodes);
        context.workers = config.workers;
        context.lambda = config.lambda;
        context.betas = config.betas;
        context.worldCount = int(worlds.size());
        context.seed = settings.seed;
        {
            QList<const DiscoveryTree *> trees;
            for (const DreamWorld &w : worlds)
                trees.append(w.world.tree.get());
            context.worldStats = computeHistoryStats(trees);
        }
        context.evaluate = [&](const QString &code, const std::atomic_bool &) {
            PolicyVersion candidate;
            candidate.name = QStringLiteral("candidate");
            candidate.code = code;
            const SandboxedReplayOutcome o = replay(candidate, valued);
            CandidateScore score;
            score.cancelled = o.cancelled;
            if (!o.output) {
                score.error = o.error;
            } else if (!o.output->result.ok()) {
                score.error = o.output->result.firstError();
            } else if (!o.output->result.value) {
                score.error = QStringLiteral("no world could score it");
            } else {
                score.value = o.output->result.value;
            }
            return score;
        };

        const DevelopmentOutcome developed = m_developer->develop(context, m_cancel);
        if (developed.cancelled || m_cancel.load())
            return finish();

        DreamVersion dv;
        dv.index = index;
        dv.developer = developed.model.isEmpty() ? m_developer->kind() : developed.model;
        dv.usage = developed.usage;
        PolicyVersion &pv = dv.developed.version;
        pv.name = QStringLiteral("v%1").arg(nextNumber++);
        pv.code = developed.code;
        pv.origin = developed.origin;
        const int base = developed.baseIndex >= 0 && developed.baseIndex <= m ? developed.baseIndex : m;
        pv.parent = report.versions.at(base).developed.version.id;
        pv.prompt = developed.prompt;
        pv.response = developed.response;
        pv.created = QDateTime::currentDateTimeUtc();
        if (persist) {
            const StoreResult<PolicyVersionId> id = m_store->addPolicyVersion(pv).result();
            if (!id.ok()) {
                report.error = QStringLiteral("cannot store version %1: %2").arg(pv.name, id.error);
                return report;
            }
            pv.id = *id.value;
        } else {
            pv.id = nextNumber - 1; // in memory: the version's number is its id
        }

        if (!developed.ok) {
            dv.developed.error = developed.error.isEmpty() ? QStringLiteral("the developer returned no script") : developed.error;
            emit message(QStringLiteral("version %1 (%2): no script: %3").arg(index).arg(pv.name, dv.developed.error));
            if (!storeResults(dv.developed, nullptr, valued))
                return report;
        } else {
            emit message(QStringLiteral("version %1 (%2): replaying on %3 worlds × %4 β")
                             .arg(index)
                             .arg(pv.name)
                             .arg(worlds.size())
                             .arg(config.betas.size()));
            const SandboxedReplayOutcome o = replay(pv, valued);
            if (o.cancelled) {
                // Stored without results: a later dream or replay can judge it.
                report.versions.append(dv);
                return finish();
            }
            outputs.insert(index, o.output);
            if (!storeResults(dv.developed, &o, valued))
                return report;
            noteValue(dv);
            emit message(QStringLiteral("version %1 (%2): %3")
                             .arg(index)
                             .arg(pv.name,
                                  dv.developed.error.isEmpty()
                                      ? QStringLiteral("mean value %1").arg(QString::number(*dv.developed.value, 'g', 6))
                                      : QStringLiteral("failed: %1").arg(dv.developed.error)));
        }
        report.versions.append(dv);
        emit versionReady(dv);
    }
    return finish();
}

} // namespace dreamrsi
