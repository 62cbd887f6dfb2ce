// The project layer (core/project): which iterations are worlds and their
// names, how a version runs, the value rule, approval, `dreamrsi replay
// --project` and `dreamrsi approve` against the same functions, and a
// damaged project file refused with the damage named.
#include "clirunsupport.h"
#include "model/treejson.h"
#include "policy/builtinpolicies.h"
#include "project/approvalcomparison.h"
#include "replay/replayengine.h"
#include "project/policychoice.h"
#include "project/policyresolution.h"
#include "project/projectpolicies.h"
#include "project/projectscores.h"
#include "project/projectsnapshot.h"
#include "project/projectworlds.h"
#include "project/valuationworlds.h"
#include "store/projectreader.h"
#include "store/projectstore.h"
#include "store/storeawait.h"
#include "store/projectwriter.h"
#include "task/task.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

namespace {

using Run = dreamrsi::test::TextRun;
using dreamrsi::test::runText;

QString fixture(const char *name)
{
    return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/project/") + QLatin1String(name);
}

DiscoveryTree tree(const char *name)
{
    auto parsed = TreeJson::readFile(fixture(name));
    if (!parsed.ok())
        qFatal("%s", qPrintable(parsed.error.message));
    return std::move(*parsed.tree);
}

/// A project with the three fixture worlds, a running round and an interrupted one.
QString makeProject(const QTemporaryDir &dir)
{
    const QString p = dir.filePath(QStringLiteral("p.dreamrsi"));
    ProjectInfo info;
    info.name = QStringLiteral("p");
    auto w = ProjectWriter::create(p, info);
    if (!w.ok())
        qFatal("%s", qPrintable(w.error));
    ProjectWriter &writer = **w.value;
    for (const char *name : {"alpha.json", "beta.json", "flat.json"}) {
        if (!writer.importTree(tree(name), fixture(name)).ok())
            qFatal("import failed");
    }
    IterationInfo live;
    live.number = 7;
    const auto running = writer.beginIteration(live);
    live.number = 8;
    const auto stopped = writer.beginIteration(live);
    if (!running.ok() || !stopped.ok() || !writer.finishIteration(*stopped.value, IterationStatus::Interrupted).ok())
        qFatal("rounds failed");
    QList<PolicyVersion> versions = ProjectPolicies::builtinVersions();
    PolicyVersion mine;
    mine.name = QStringLiteral("mine");
    mine.code = QStringLiteral("function selectBatch(state) { return state.legal.slice(0, 1); }\n");
    versions.append(mine);
    for (const PolicyVersion &v : std::as_const(versions)) {
        if (!writer.addPolicyVersion(v).ok())
            qFatal("version failed");
    }
    return p;
}

ProjectSnapshot snapshot(const QString &p)
{
    auto reader = ProjectReader::open(p);
    if (!reader.ok())
        qFatal("%s", qPrintable(reader.error));
    auto s = ProjectSnapshot::load(**reader.value);
    if (!s.ok())
        qFatal("%s", qPrintable(s.error));
    return std::move(*s.value);
}

/// A record as text, for comparing record lists whole.
QString recordText(const ReplayResultRecord &r)
{
    return QStringLiteral("v%1 w%2 β%3 W%4 λ%5 K%6 C%7 k%8 n%9 s%10 a%11 %12 %13")
        .arg(r.key.version)
        .arg(r.key.world)
        .arg(r.key.beta)
        .arg(r.key.workers)
        .arg(r.key.lambda)
        .arg(r.key.rounds.value_or(-1))
        .arg(r.key.completions)
        .arg(r.key.completion)
        .arg(r.calls)
        .arg(r.best, 0, 'g', 17)
        .arg(r.attainment, 0, 'g', 17)
        .arg(r.revealed.join(QLatin1Char(',')), r.error.value_or(QString()));
}

QStringList recordTexts(const QList<ReplayResultRecord> &records)
{
    QStringList out;
    for (const ReplayResultRecord &r : records)
        out.append(recordText(r));
    return out;
}

} // namespace

class TestProject : public QObject
{
    Q_OBJECT
private slots:
    // Finished iterations only, named by their file (or "iteration N"), unique.
    void worldsAreFinishedIterations()
    {
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        {
            auto w = ProjectWriter::open(p);
            QVERIFY(w.ok());
            QVERIFY((*w.value)->importTree(tree("alpha.json"), fixture("alpha.json")).ok());
        }
        const ProjectSnapshot s = snapshot(p);
        QCOMPARE(s.skippedIterations, 2);
        QStringList names;
        for (const ProjectWorld &w : s.worlds)
            names.append(w.name);
        QCOMPARE(names, (QStringList{QStringLiteral("alpha"), QStringLiteral("beta"), QStringLiteral("flat"),
                                     QStringLiteral("alpha (2)")}));
        IterationInfo unnamed;
        unnamed.id = 12;
        QCOMPARE(ProjectWorlds::baseNameOf(unnamed), QStringLiteral("iteration 12"));
        unnamed.number = 3;
        QCOMPARE(ProjectWorlds::baseNameOf(unnamed), QStringLiteral("iteration 3"));
        unnamed.status = IterationStatus::Running;
        QVERIFY(!ProjectWorlds::isReplayWorld(unnamed));
    }

    // A built-in's exact twin runs as the built-in; anything else as the script it is.
    void versionsRunByOneRule()
    {
        for (const PolicyVersion &v : ProjectPolicies::builtinVersions()) {
            QCOMPARE(ProjectPolicies::specFor(v).kind(), PolicySpec::Kind::Builtin);
            QCOMPARE(ProjectPolicies::processArgumentFor(v), v.name);
            PolicyVersion edited = v;
            edited.code += QStringLiteral("\n// tuned\n");
            QCOMPARE(ProjectPolicies::specFor(edited).kind(), PolicySpec::Kind::Script);
            QVERIFY(ProjectPolicies::processArgumentFor(edited).isEmpty());
            // The name plays no part: the twin's code under another name is still the built-in.
            PolicyVersion renamed = v;
            renamed.name = QStringLiteral("mine");
            renamed.origin = PolicyOrigin::Human;
            QCOMPARE(ProjectPolicies::specFor(renamed).kind(), PolicySpec::Kind::Builtin);
        }
    }

    // Which version a choice names is resolved once, for rounds, dreams and
    // the window: built-ins and the manual placeholder are stored the first
    // time, a stored version is found by name or id, the latest approved one
    // is the newest approval's (by time, then id), else builtin:portfolio.
    void choicesResolveOnce()
    {
        QTemporaryDir dir;
        ProjectStore store;
        QVERIFY(await(store.create(dir.filePath(QStringLiteral("p.dreamrsi")), ProjectInfo())).ok());
        const Result<ResolvedPolicy> fallback = PolicyResolution::resolve(store, PolicyChoice::latestApproved());
        QVERIFY2(fallback.ok(), qPrintable(fallback.error));
        QCOMPARE(fallback.value->version.name, QStringLiteral("builtin:portfolio"));
        QVERIFY(fallback.value->version.id > 0); // stored the first time
        QVERIFY(fallback.value->description.contains(QStringLiteral("no approved version")));
        const Result<ResolvedPolicy> again = PolicyResolution::resolve(store, PolicyChoice::builtin(QStringLiteral("portfolio")));
        QCOMPARE(again.value->version.id, fallback.value->version.id); // not stored twice

        PolicyVersion mine;
        mine.name = QStringLiteral("mine");
        mine.code = QStringLiteral("function selectBatch(s) { return [s.legal[0]]; }");
        const StoreResult<PolicyVersionId> mineId = await(store.addPolicyVersion(mine));
        QVERIFY(mineId.ok());
        QCOMPARE(PolicyResolution::resolve(store, PolicyChoice::stored(QStringLiteral("mine"))).value->version.id, *mineId.value);
        QCOMPARE(PolicyResolution::resolve(store, PolicyChoice::stored(QString::number(*mineId.value))).value->version.name,
                 mine.name);
        const Result<ResolvedPolicy> missing = PolicyResolution::resolve(store, PolicyChoice::stored(QStringLiteral("nope")));
        QVERIFY(!missing.ok());
        QVERIFY2(missing.error.contains(QStringLiteral("'nope'")) && missing.error.contains(QStringLiteral("mine")),
                 qPrintable(missing.error));
        QVERIFY(!PolicyResolution::resolve(store, PolicyChoice::builtin(QStringLiteral("nope"))).ok());
        const Result<ResolvedPolicy> manual = PolicyResolution::resolve(store, PolicyChoice::manual());
        QVERIFY(manual.ok() && manual.value->manual);

        // Approved: the newest approval wins; a resumed round keeps its own version.
        Approval approval;
        approval.version = *mineId.value;
        approval.who = QStringLiteral("test");
        QVERIFY(await(store.addApproval(approval)).ok());
        const Result<ResolvedPolicy> approved = PolicyResolution::resolve(store, PolicyChoice::latestApproved());
        QCOMPARE(approved.value->version.id, *mineId.value);
        QVERIFY(approved.value->description.contains(QStringLiteral("latest approved")));
        const Result<ResolvedPolicy> resumed =
            PolicyResolution::resolve(store, PolicyChoice::latestApproved(), fallback.value->version.id);
        QCOMPARE(resumed.value->version.id, fallback.value->version.id);

        // The newest approval by time, then by id, then the later in the list.
        const QDateTime t0 = QDateTime::fromSecsSinceEpoch(1000, Qt::UTC);
        QList<Approval> list(3);
        list[0].id = 5, list[0].version = 50, list[0].when = t0.addSecs(10);
        list[1].id = 6, list[1].version = 60, list[1].when = t0;
        list[2].id = 7, list[2].version = 70, list[2].when = t0;
        QCOMPARE(PolicyResolution::newestApproval(list)->version, PolicyVersionId(50));
        list[0].when = t0;
        QCOMPARE(PolicyResolution::newestApproval(list)->version, PolicyVersionId(70));
        QVERIFY(!PolicyResolution::newestApproval({}));
        await(store.close());
    }

    // The policy a round runs, typed once: its argument form reads back to
    // the same choice, and every kind of `--policy` text is told apart.
    // A --policy argument becomes a version one way for every command that
    // replays (replay --project, plot, loop --worlds).
    void policyArgumentIsReadOnce()
    {
        QTemporaryDir dir;
        const Result<PolicyVersion> builtin = PolicyResolution::versionOfArgument(QStringLiteral("builtin:portfolio"));
        QVERIFY2(builtin.ok(), qPrintable(builtin.error));
        QCOMPARE(builtin.value->name, QStringLiteral("builtin:portfolio"));
        QCOMPARE(builtin.value->code, BuiltinPolicies::javaScriptSource(QStringLiteral("portfolio")));
        QCOMPARE(ProjectPolicies::processArgumentFor(*builtin.value), QStringLiteral("builtin:portfolio"));

        const Result<PolicyVersion> unknown = PolicyResolution::versionOfArgument(QStringLiteral("builtin:nope"));
        QVERIFY(!unknown);
        QVERIFY2(unknown.error.contains(QStringLiteral("unknown built-in policy 'nope'"))
                     && unknown.error.contains(QStringLiteral("builtin:portfolio")),
                 qPrintable(unknown.error));

        const QString code = QStringLiteral("function selectBatch(o) { return o.legal.slice(0, o.W); }\n");
        for (const char *file : {"mine.js", "mine.policy"}) {
            QFile f(dir.filePath(QString::fromLatin1(file)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(code.toUtf8());
        }
        const Result<PolicyVersion> js = PolicyResolution::versionOfArgument(dir.filePath(QStringLiteral("mine.js")));
        QVERIFY2(js.ok(), qPrintable(js.error));
        QCOMPARE(js.value->name, QStringLiteral("mine"));
        QCOMPARE(js.value->code, code);
        QCOMPARE(js.value->origin, PolicyOrigin::Human);
        const Result<PolicyVersion> renamed =
            PolicyResolution::versionOfArgument(dir.filePath(QStringLiteral("mine.js")), {}, QStringLiteral("v9"));
        QCOMPARE(renamed.value->name, QStringLiteral("v9"));

        // A stored name wins over a file of another extension; either is found.
        PolicyVersion stored;
        stored.id = 7;
        stored.name = dir.filePath(QStringLiteral("mine.policy"));
        stored.code = QStringLiteral("// stored");
        const Result<PolicyVersion> byName = PolicyResolution::versionOfArgument(stored.name, {stored});
        QCOMPARE(byName.value->id, PolicyVersionId(7));
        const Result<PolicyVersion> byFile = PolicyResolution::versionOfArgument(stored.name);
        QCOMPARE(byFile.value->code, code);

        const Result<PolicyVersion> missing = PolicyResolution::versionOfArgument(QStringLiteral("v404"), {stored});
        QVERIFY(!missing);
        QVERIFY2(missing.error.contains(QStringLiteral("\"v404\"")), qPrintable(missing.error));
    }

    void policyChoiceRoundTrips()
    {
        using Kind = PolicyChoice::Kind;
        QCOMPARE(PolicyChoice::fromArgument(QString()).kind(), Kind::LatestApproved);
        QCOMPARE(PolicyChoice::fromArgument(QStringLiteral("  ")), PolicyChoice::latestApproved());
        QCOMPARE(PolicyChoice::fromArgument(QStringLiteral("builtin:greedy")), PolicyChoice::builtin(QStringLiteral("greedy")));
        QCOMPARE(PolicyChoice::fromArgument(QStringLiteral("manual")), PolicyChoice::manual());
        QCOMPARE(PolicyChoice::fromArgument(QStringLiteral("builtin:manual")), PolicyChoice::manual());
        QCOMPARE(PolicyChoice::fromArgument(QStringLiteral("v7")), PolicyChoice::stored(QStringLiteral("v7")));
        QCOMPARE(PolicyChoice::fromArgument(QStringLiteral("12")).name(), QStringLiteral("12"));
        QVERIFY(PolicyChoice::builtin(QStringLiteral("greedy")) != PolicyChoice::stored(QStringLiteral("greedy")));
        const QList<PolicyChoice> choices{PolicyChoice::latestApproved(), PolicyChoice::builtin(QStringLiteral("portfolio")),
                                          PolicyChoice::manual(), PolicyChoice::stored(QStringLiteral("dreamed v3"))};
        for (const PolicyChoice &c : choices)
            QCOMPARE(PolicyChoice::fromArgument(c.toArgument()), c);
        QCOMPARE(PolicyChoice::builtin(QStringLiteral("portfolio")).toArgument(), QStringLiteral("builtin:portfolio"));
    }

    // One value rule: mean over scorable worlds, none on an error or a missing world.
    void valueRule()
    {
        QList<ProjectWorld> worlds;
        int id = 1;
        for (const char *name : {"alpha.json", "beta.json", "flat.json"})
            worlds.append({QString::fromLatin1(name).chopped(5), id++, std::make_shared<const DiscoveryTree>(tree(name))});
        QList<ReplayWorld> replayWorlds;
        for (const ProjectWorld &w : worlds)
            replayWorlds.append({w.name, w.tree});
        ReplayOptions o;
        o.workers = 3;
        o.threads = 1;
        const ReplayResult fresh = ReplayEngine::runWorlds(replayWorlds, PolicySpec::builtin(QStringLiteral("portfolio")), o);
        QVERIFY2(fresh.ok(), qPrintable(fresh.firstError()));
        QCOMPARE(fresh.scorableWorlds, 2); // flat has S = 0
        QVERIFY(fresh.value);
        QCOMPARE(*fresh.value, (*fresh.worlds.at(0).value + *fresh.worlds.at(1).value) / 2);

        // Stored and re-read, the same numbers, bit for bit.
        QList<ReplayResultRecord> records = ProjectScores::recordsFor(fresh, 5, worlds);
        QCOMPARE(records.size(), 3 * o.betas.size());
        ReplayConfig config;
        config.workers = 3;
        config.valuation = Valuation::Revealed; // the records are of the worlds as revealed
        const auto back = ProjectScores::resultsFromRecords(records, worlds, config);
        QVERIFY(back.value(5));
        QCOMPARE(*back.value(5)->value, *fresh.value);
        for (qsizetype w = 0; w < worlds.size(); ++w)
            QCOMPARE(back.value(5)->worlds.at(w).hypervolume, fresh.worlds.at(w).hypervolume);

        // A world without results: no value over the project.
        QList<ReplayResultRecord> partial;
        for (const ReplayResultRecord &r : std::as_const(records)) {
            if (r.key.world != 2)
                partial.append(r);
        }
        const auto missing = ProjectScores::resultsFromRecords(partial, worlds, config);
        QVERIFY(missing.value(5));
        QVERIFY(!missing.value(5)->value);
        QVERIFY(!ProjectScores::coversAll(*missing.value(5), worlds));

        // An error in any world: no value either.
        records.first().error = QStringLiteral("round 1: boom");
        QVERIFY(!ProjectScores::resultsFromRecords(records, worlds, config).value(5)->value);
    }

    // Which worlds a version is valued over, decided once (ValuationWorlds):
    // the revealed history, C completions drawn as Imagination::imagine draws
    // them with the tasks' directions, the approximate filter, and the
    // records a result over them becomes — what ProjectScores' primitives
    // give when the history is the whole project, and by name when a world
    // was left out.
    void valuationWorldsAreOnePath()
    {
        QList<ProjectWorld> worlds;
        int id = 1;
        for (const char *name : {"alpha.json", "beta.json", "flat.json"})
            worlds.append({QString::fromLatin1(name).chopped(5), id++, std::make_shared<const DiscoveryTree>(tree(name))});
        QList<ReplayWorld> replayWorlds;
        for (const ProjectWorld &w : worlds)
            replayWorlds.append({w.name, w.tree});

        // The C rule: C (at least 1) when imagined, 0 when revealed.
        ReplayConfig config;
        config.workers = 3;
        config.betas = {0.0, 1.0};
        config.completions = 3;
        QCOMPARE(ValuationWorlds::completionsOf(config), 3);
        config.completions = 0;
        QCOMPARE(ValuationWorlds::completionsOf(config), 1);
        QCOMPARE(config.imaginedCompletions(), 1); // the rule that keys stored results agrees
        QCOMPARE(ValuationWorlds::completionsOf(config, ValuationWorlds::Kind::Revealed), 0);
        config.valuation = Valuation::Revealed;
        QCOMPARE(ValuationWorlds::completionsOf(config), 0);
        QCOMPARE(ValuationWorlds::completionsOf(config, ValuationWorlds::Kind::Imagined), 1);

        // Revealed: the history itself.
        const Result<ValuationWorlds> revealed = ValuationWorlds::of(config, worlds, 99);
        QVERIFY2(revealed, qPrintable(revealed.error));
        QCOMPARE(revealed.value->kind, ValuationWorlds::Kind::Revealed);
        QCOMPARE(revealed.value->completions, 0);
        QCOMPARE(revealed.value->worlds.size(), worlds.size());
        for (qsizetype j = 0; j < worlds.size(); ++j) {
            QCOMPARE(revealed.value->worlds.at(j).name, worlds.at(j).name);
            QCOMPARE(revealed.value->worlds.at(j).tree, worlds.at(j).tree);
        }

        // Imagined: exactly Imagination::imagine's completions and models for the seed.
        config.valuation = Valuation::Imagined;
        config.completions = 3;
        const Result<ValuationWorlds> imagined = ValuationWorlds::of(config, worlds, 11, 2);
        QVERIFY2(imagined, qPrintable(imagined.error));
        const Result<ImaginedHistory> expected =
            Imagination::imagine(replayWorlds, 11, 3, ImaginationOptions(), 1, &Task::directionNamesOf);
        QVERIFY2(expected, qPrintable(expected.error));
        QCOMPARE(imagined.value->kind, ValuationWorlds::Kind::Imagined);
        QCOMPARE(imagined.value->completions, 3);
        QCOMPARE(imagined.value->seed, quint64(11));
        QCOMPARE(imagined.value->worlds.size(), expected.value->completions.size());
        QCOMPARE(imagined.value->worlds.size(), worlds.size() * 3);
        for (qsizetype i = 0; i < expected.value->completions.size(); ++i) {
            QCOMPARE(imagined.value->worlds.at(i).name, expected.value->completions.at(i).name);
            QCOMPARE(TreeJson::toJson(*imagined.value->worlds.at(i).tree),
                     TreeJson::toJson(*expected.value->completions.at(i).tree));
            QCOMPARE(imagined.value->historyIndexOf(i), int(i / 3));
        }
        QCOMPARE(imagined.value->models.toJson(), expected.value->model.toJson());
        QCOMPARE(ValuationWorlds::modelsOf(replayWorlds).toJson(), expected.value->model.toJson());
        QCOMPARE(imagined.value->firstOfEach().size(), worlds.size());
        QCOMPARE(imagined.value->firstOfEach().at(1).name, imagined.value->worlds.at(3).name);

        // Its records are those recordsForCompletions gives over the whole history.
        ReplayOptions o = ProjectScores::optionsFor(config);
        o.threads = 1;
        ReplayResult overCompletions =
            ReplayEngine::runWorlds(imagined.value->worlds, PolicySpec::builtin(QStringLiteral("portfolio")), o);
        overCompletions.completions = 3;
        const QList<ReplayResultRecord> imaginedRecords = imagined.value->recordsOf(overCompletions, 5);
        QCOMPARE(imaginedRecords.size(), worlds.size() * 3 * config.betas.size());
        QCOMPARE(recordTexts(imaginedRecords),
                 recordTexts(ProjectScores::recordsForCompletions(overCompletions, 5, {1, 2, 3}, 3)));
        QCOMPARE(imaginedRecords.at(2 * 3 * 2 + 1 * 2).key.world, 3);
        QCOMPARE(imaginedRecords.at(2 * 3 * 2 + 1 * 2).key.completion, 1);
        // … and the revealed set's those of ProjectScores::recordsFor.
        config.valuation = Valuation::Revealed;
        ReplayResult overRevealed =
            ReplayEngine::runWorlds(revealed.value->worlds, PolicySpec::builtin(QStringLiteral("portfolio")), o);
        QCOMPARE(recordTexts(revealed.value->recordsOf(overRevealed, 5)),
                 recordTexts(ProjectScores::recordsFor(overRevealed, 5, worlds)));
        QCOMPARE(revealed.value->errorRecords(5, config, QStringLiteral("boom")).size(), worlds.size() * 2);
        QCOMPARE(imagined.value->errorRecords(5, config, QStringLiteral("boom")).size(), worlds.size() * 3 * 2);
        QCOMPARE(imagined.value->errorRecords(5, config, QStringLiteral("boom")).at(2).key.completion, 1);

        // The approximate filter: beta left out unless asked for.
        TreeMeta meta = worlds.at(1).tree->meta();
        meta.approximate = true;
        std::optional<DiscoveryTree> approximate = DiscoveryTree::build(meta, worlds.at(1).tree->cells());
        QVERIFY(approximate);
        QList<ProjectWorld> withApproximate = worlds;
        withApproximate[1].tree = std::make_shared<const DiscoveryTree>(std::move(*approximate));
        int leftOut = -1;
        const QList<ProjectWorld> history = ValuationWorlds::historyOf(withApproximate, false, &leftOut);
        QCOMPARE(leftOut, 1);
        QCOMPARE(history.size(), 2);
        QCOMPARE(history.at(1).name, QStringLiteral("flat"));
        QCOMPARE(ValuationWorlds::historyOf(withApproximate, true, &leftOut).size(), 3);
        QCOMPARE(leftOut, 0);

        // Completions of a history without beta: every record names the
        // world it was drawn from, also when matched against all the worlds.
        const Result<ValuationWorlds> filtered = ValuationWorlds::imagined(history, 2, 11);
        QVERIFY2(filtered, qPrintable(filtered.error));
        ReplayResult overFiltered =
            ReplayEngine::runWorlds(filtered.value->worlds, PolicySpec::builtin(QStringLiteral("portfolio")), o);
        overFiltered.completions = 2;
        const QList<ReplayResultRecord> filteredRecords = filtered.value->recordsOf(overFiltered, 5);
        QCOMPARE(filteredRecords.size(), 2 * 2 * config.betas.size());
        QCOMPARE(filteredRecords.last().key.world, 3); // flat, not beta
        QCOMPARE(recordTexts(ValuationWorlds::recordsFor(overFiltered, 5, withApproximate)), recordTexts(filteredRecords));
        ValuationWorlds::revealed(withApproximate).labelApproximate(overRevealed);
        QVERIFY(!overRevealed.worlds.at(0).approximate);
        QVERIFY(overRevealed.worlds.at(1).approximate);
    }

    // `dreamrsi replay --project` and the project layer give the same numbers;
    // `dreamrsi approve` stores the evidence ApprovalRules builds.
    // `replay --project --policy FILE` reads a policy argument as `plot`
    // and PolicyResolution::versionOfArgument do: a script file by any name
    // (p.txt was refused as an unknown version name), with the value the
    // same code gets as a .js file.
    void replayProjectTakesAnyScriptFile()
    {
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        const QByteArray code = "function selectBatch(state) { return [state.legal[0]]; }\n";
        for (const char *name : {"first.txt", "first.js"}) {
            QFile f(dir.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(code);
        }
        const QStringList common{QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--threads"),
                                 QStringLiteral("1"), QStringLiteral("--json")};
        Run txt = runText(QStringList{QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                                      dir.filePath(QStringLiteral("first.txt"))} + common);
        QVERIFY2(txt.exitCode == 0, qPrintable(txt.err));
        Run js = runText(QStringList{QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                                     dir.filePath(QStringLiteral("first.js")), QStringLiteral("--name"), QStringLiteral("first-js")}
                         + common);
        QVERIFY2(js.exitCode == 0, qPrintable(js.err));
        const QJsonValue value = QJsonDocument::fromJson(txt.out.toUtf8()).object().value(QStringLiteral("value"));
        QVERIFY(value.isDouble());
        QCOMPARE(value, QJsonDocument::fromJson(js.out.toUtf8()).object().value(QStringLiteral("value")));
        ProjectSnapshot s = snapshot(p);
        QVERIFY(s.versionNamed(QStringLiteral("first")));
        // A name that is neither stored nor a file still says what to give.
        Run missing = runText(QStringList{QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                                          QStringLiteral("v404")} + common);
        QCOMPARE(missing.exitCode, 1);
        QVERIFY2(missing.err.contains(QStringLiteral("give a stored version name, a .js file or builtin:NAME")),
                 qPrintable(missing.err));
    }

    void cliAgreesWithCore()
    {
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        // Values are compared under the project's replay configuration: make
        // its W 4, over the worlds as revealed (the files replayed directly).
        Run r = runText({QStringLiteral("project"), QStringLiteral("config"), p, QStringLiteral("--workers"), QStringLiteral("4"),
                         QStringLiteral("--valuation"), QStringLiteral("revealed")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QStringList common{QStringLiteral("--workers"), QStringLiteral("4"), QStringLiteral("--threads"),
                                 QStringLiteral("1"), QStringLiteral("--json")};
        r = runText(QStringList{QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                                QStringLiteral("builtin:parallel_refine")} + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("stored 15 results")) && r.err.contains(QStringLiteral("2 running or interrupted")),
                 qPrintable(r.err));
        const QJsonObject greedy = QJsonDocument::fromJson(r.out.toUtf8()).object();
        // The same replay straight from the files gives the same numbers.
        QStringList direct{QStringLiteral("replay"), QStringLiteral("--policy"), QStringLiteral("builtin:parallel_refine")};
        for (const char *name : {"alpha.json", "beta.json", "flat.json"})
            direct << QStringLiteral("--world") << fixture(name);
        r = runText(direct + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("value")), greedy.value(QStringLiteral("value")));
        // Again: results are replaced, not duplicated.
        r = runText(QStringList{QStringLiteral("replay"), QStringLiteral("--project"), p, QStringLiteral("--policy"),
                            QStringLiteral("builtin:parallel_refine")} + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        {
            auto reader = ProjectReader::open(p);
            QVERIFY(reader.ok());
            QCOMPARE((*reader.value)->replayResults().value->size(), 15);
        }
        r = runText(QStringList{QStringLiteral("project"), QStringLiteral("replay"), p, QStringLiteral("--policy"),
                            QStringLiteral("builtin:portfolio")} + common);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject portfolio = QJsonDocument::fromJson(r.out.toUtf8()).object();

        ProjectSnapshot s = snapshot(p);
        const PolicyVersion *g = s.versionNamed(QStringLiteral("builtin:parallel_refine"));
        QVERIFY(g);
        QVERIFY(s.results.value(g->id));
        QCOMPARE(QJsonValue(*s.results.value(g->id)->value), greedy.value(QStringLiteral("value")));
        const QJsonArray worlds = greedy.value(QStringLiteral("worlds")).toArray();
        QCOMPARE(worlds.size(), 3);
        QCOMPARE(worlds.at(1).toObject().value(QStringLiteral("world")).toString(), QStringLiteral("beta"));

        // Approval: blockers first, then the stored evidence.
        const ApprovalInputs inputs = s.approvalInputs();
        QCOMPARE(ApprovalRules::compare(inputs, QStringLiteral("mine")).blocker, ApprovalBlocker::NotReplayed);
        QCOMPARE(ApprovalRules::compare(inputs, QStringLiteral("nope")).blocker, ApprovalBlocker::UnknownVersion);
        r = runText({QStringLiteral("approve"), QStringLiteral("--project"), p, QStringLiteral("--version"),
                 QStringLiteral("mine"), QStringLiteral("--by"), QStringLiteral("Ada")});
        QCOMPARE(r.exitCode, 1);
        // The one wording of the comparison: the command prints what the Approve dialog shows (ApprovalRules::describe).
        QVERIFY2(r.err.contains(QStringLiteral("Replay it first")), qPrintable(r.err));
        QVERIFY2(r.err.contains(ApprovalRules::describe(ApprovalRules::compare(inputs, QStringLiteral("mine")))), qPrintable(r.err));

        const QString best = ApprovalRules::bestCandidate(inputs);
        const double vg = greedy.value(QStringLiteral("value")).toDouble();
        const double vp = portfolio.value(QStringLiteral("value")).toDouble();
        QCOMPARE(best, vg >= vp ? QStringLiteral("builtin:parallel_refine") : QStringLiteral("builtin:portfolio"));
        const ApprovalComparison expected = ApprovalRules::compare(inputs, best);
        QVERIFY(expected.approvable());
        QCOMPARE(expected.baselineRole, QStringLiteral("best other version"));
        r = runText({QStringLiteral("approve"), QStringLiteral("--project"), p, QStringLiteral("--best"), QStringLiteral("--by"),
                 QStringLiteral("Ada"), QStringLiteral("--note"), QStringLiteral("the better one"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject printed = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(printed.value(QStringLiteral("evidence")).toObject(), expected.evidence);
        s = snapshot(p);
        QCOMPARE(s.approvals.size(), 1);
        QCOMPARE(s.approvals.first().who, QStringLiteral("Ada"));
        QCOMPARE(s.approvals.first().note, QStringLiteral("the better one"));
        QCOMPARE(s.approvals.first().evidence, expected.evidence);
        QCOMPARE(s.deployedVersion(), expected.candidateId);
        // Now the other one is judged against the deployed one.
        const QString other = best == QLatin1String("builtin:parallel_refine") ? QStringLiteral("builtin:portfolio") : QStringLiteral("builtin:parallel_refine");
        const ApprovalComparison next = ApprovalRules::compare(s.approvalInputs(), other);
        QCOMPARE(next.baseline, best);
        QCOMPARE(next.baselineRole, QStringLiteral("deployed"));
        QCOMPARE(next.evidence.value(QStringLiteral("warnings")).toArray().contains(QStringLiteral("lower_value")), vg != vp);
        // --best again: the deployed version is worth the most, so nothing is
        // approved (never the other, lower one).
        QCOMPARE(ApprovalRules::bestCandidate(s.approvalInputs()), best);
        r = runText({QStringLiteral("approve"), QStringLiteral("--project"), p, QStringLiteral("--best"), QStringLiteral("--by"),
                 QStringLiteral("Ada")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("nothing better than the deployed version ") + best), qPrintable(r.out));
        r = runText({QStringLiteral("approve"), QStringLiteral("--project"), p, QStringLiteral("--best"), QStringLiteral("--by"),
                 QStringLiteral("Ada"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject none = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY2(none.value(QStringLiteral("approval")).isNull(), qPrintable(r.out));
        QCOMPARE(none.value(QStringLiteral("deployed")).toString(), best);
        QCOMPARE(snapshot(p).approvals.size(), 1);
    }

    void approveUsage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::addRow("nothing") << QStringList{} << 2;
        QTest::addRow("no version") << QStringList{QStringLiteral("--project"), QStringLiteral("p.dreamrsi")} << 2;
        QTest::addRow("both") << QStringList{QStringLiteral("--project"), QStringLiteral("p"), QStringLiteral("--version"),
                                             QStringLiteral("v"), QStringLiteral("--best")} << 2;
        QTest::addRow("unknown option") << QStringList{QStringLiteral("--frob")} << 2;
        QTest::addRow("help") << QStringList{QStringLiteral("--help")} << 0;
        QTest::addRow("replay world and project")
            << QStringList{QStringLiteral("replay-project"), QStringLiteral("--project"), QStringLiteral("p"),
                           QStringLiteral("--world"), QStringLiteral("w.json"), QStringLiteral("--policy"), QStringLiteral("x")}
            << 2;
    }
    void approveUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        QStringList full = args;
        if (full.value(0) == QLatin1String("replay-project"))
            full[0] = QStringLiteral("replay");
        else
            full.prepend(QStringLiteral("approve"));
        const Run r = runText(full);
        QCOMPARE(r.exitCode, exitCode);
        if (exitCode == 2)
            QVERIFY2(r.err.contains(QStringLiteral("usage")) || r.err.startsWith(QStringLiteral("error: ")), qPrintable(r.err));
        else
            QVERIFY(r.out.contains(QStringLiteral("usage")));
    }

    // Flipped bytes: the store names the damage instead of opening.
    void damagedFileIsRefused()
    {
        QTemporaryDir dir;
        const QString p = makeProject(dir);
        QFile f(p);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray clean = f.readAll();
        f.close();
        QVERIFY(!QFileInfo::exists(p + QStringLiteral("-wal")) || QFileInfo(p + QStringLiteral("-wal")).size() == 0);

        // 1. A column name in the stored schema changed ("timing" → "tim\x01ng").
        QByteArray schema = clean;
        const qsizetype at = schema.indexOf("timing TEXT");
        QVERIFY(at > 0);
        schema[at + 1] = char(schema[at + 1] ^ 0x01); // "timing" → "thming": still valid SQL, another column
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(schema);
        f.close();
        auto reader = ProjectReader::open(p);
        QVERIFY(!reader.ok());
        QVERIFY2(reader.error.contains(QStringLiteral("damaged")) && reader.error.contains(QStringLiteral("timing")),
                 qPrintable(reader.error));
        auto writer = ProjectWriter::open(p);
        QVERIFY(!writer.ok());
        QVERIFY2(writer.error.contains(QStringLiteral("damaged")), qPrintable(writer.error));
        Run r = runText({QStringLiteral("export"), p, QStringLiteral("--all"), QStringLiteral("--dir"), dir.filePath(QStringLiteral("out"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QStringLiteral("damaged")) && !r.err.contains(QStringLiteral("no such column")), qPrintable(r.err));

        // 2. Bytes flipped inside a table page (past the header page).
        QByteArray pages = clean;
        const qsizetype pageSize = (quint8(clean.at(16)) << 8) | quint8(clean.at(17));
        QVERIFY(pages.size() >= 3 * pageSize);
        for (qsizetype i = pageSize + 8; i < pageSize + 64; ++i)
            pages[i] = char(pages[i] ^ 0x5A);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(pages);
        f.close();
        reader = ProjectReader::open(p);
        QVERIFY(!reader.ok());
        QVERIFY2(reader.error.contains(QStringLiteral("damaged")), qPrintable(reader.error));

        // The clean bytes open again.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(clean);
        f.close();
        reader = ProjectReader::open(p);
        QVERIFY2(reader.ok(), qPrintable(reader.error));
    }

    // `ls` tells a round in progress from one whose process died: a
    // `running` iteration that no live process holds is shown interrupted.
    void lsShowsADeadRoundAsInterrupted()
    {
        QTemporaryDir dir;
        const QString p = dir.filePath(QStringLiteral("ls.dreamrsi"));
        auto w = ProjectWriter::create(p, ProjectInfo());
        QVERIFY2(w.ok(), qPrintable(w.error));
        QVERIFY((*w.value)->beginIteration(IterationInfo()).ok());
        Run r = runText({QStringLiteral("ls"), p});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("running")) && !r.out.contains(QStringLiteral("interrupted")), qPrintable(r.out));
        w.value->reset(); // the writer goes away without finishing the round
        r = runText({QStringLiteral("ls"), p});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(QStringLiteral("interrupted")) && !r.out.contains(QStringLiteral("running")), qPrintable(r.out));
    }
};

QTEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
