// The counterfactual loop in the window and in figures: `plot progress
// --simulation` (formats, bad input), the Progress tab's simulation view
// (stored runs listed, a damaged one reported, the figure drawn), and the
// Simulate the Loop dialog (runs on a worker thread with progress, stores
// its result beside the project, Stop ends it with the runs so far).
#include "clirunsupport.h"
#include "commands.h"

#include "figures/qcp.h"
#include "loop/counterfactual/counterfactualloop.h"
#include "loop/dream/policyimprover.h"
#include "progress/progresspage.h"
#include "progress/simulationdialog.h"
#include "replay/synthworld.h"
#include "models/workspace.h"
#include "store/projectwriter.h"
#include "store/replaybounds.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

using namespace dreamrsi;

namespace {

QList<ReplayWorld> synthWorlds(const QString &regime, int n)
{
    QList<ReplayWorld> worlds;
    for (int i = 0; i < n; ++i) {
        SynthParams p;
        p.regime = regime;
        p.seed = quint64(40 + i);
        p.width = 6;
        p.depth = 6;
        worlds.append(ReplayWorld{QStringLiteral("world %1").arg(i), std::make_shared<const DiscoveryTree>(SynthWorld::generate(p))});
    }
    return worlds;
}

QByteArray simulate(int repeats)
{
    CounterfactualSettings s;
    s.worlds = synthWorlds(QStringLiteral("flat"), 4);
    s.iterations = 3;
    s.versions = 2;
    s.workers = 3;
    s.repeats = repeats;
    s.arms = {CounterfactualArm::Dream, CounterfactualArm::Fixed};
    CounterfactualLoop loop(std::make_shared<PolicyImprover>(2));
    const CounterfactualReport report = loop.run(s);
    if (!report.error.isEmpty())
        return {};
    return QJsonDocument(CounterfactualLoop::toJson(report, s)).toJson();
}

} // namespace

class TestGuiSimulation : public QObject
{
    Q_OBJECT

    int plot(const QStringList &args, QString *errText = nullptr)
    {
        QString o, e;
        QTextStream out(&o), err(&e);
        const int rc = runPlotCommand(args, out, err);
        err.flush();
        if (errText)
            *errText = e;
        return rc;
    }

private slots:
    void initTestCase();
    void plotSimulation_data();
    void plotSimulation();
    void plotSimulationBadInput();
    void progressPageListsStoredRuns();
    void dialogRunsStoresAndShows();
    void dialogStops();
    void dialogKeepsTWhenTheSourceChanges();
    void dialogKeepsTheFormPerProject();
    void dialogNamesTheProjectsConfiguration();
    void dialogChoosesTheValuation();
    void dialogAndCommandStartFromTheProject();

private:
    QTemporaryDir m_dir;
    QString m_json;
    QByteArray m_text;
};

void TestGuiSimulation::initTestCase()
{
    // The dialog keeps its form in QSettings: never the user's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("dreamrsi-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_gui_simulation"));
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    m_text = simulate(3);
    QVERIFY(!m_text.isEmpty());
    m_json = m_dir.filePath(QStringLiteral("sim.json"));
    QFile f(m_json);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(m_text);
}

void TestGuiSimulation::plotSimulation_data()
{
    QTest::addColumn<QString>("suffix");
    for (const char *suffix : {"png", "pdf", "svg"})
        QTest::newRow(suffix) << QString::fromLatin1(suffix);
}

void TestGuiSimulation::plotSimulation()
{
    QFETCH(QString, suffix);
    const QString out = m_dir.filePath(QStringLiteral("sim.") + suffix);
    const QString data = m_dir.filePath(QStringLiteral("sim-%1.csv").arg(suffix));
    QString err;
    const int rc = plot({QStringLiteral("progress"), QStringLiteral("--simulation"), m_json, QStringLiteral("--width-mm"),
                         QStringLiteral("120"), QStringLiteral("--height-mm"), QStringLiteral("90"), QStringLiteral("--dpi"),
                         QStringLiteral("150"), QStringLiteral("--data"), data, QStringLiteral("--out"), out},
                        &err);
    QVERIFY2(rc == 0, qPrintable(err));
    QVERIFY(QFileInfo(out).size() > 1000);
    if (suffix == QLatin1String("png"))
        QCOMPARE(QImage(out).size(), QSize(709, 531)); // 120 x 90 mm at 150 dpi
    // The numbers behind it: one row per arm and iteration, after the header.
    QFile csv(data);
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 1 + 2 * 3);
    QVERIFY(lines.at(0).startsWith("arm,iteration,repeats,attainment_mean"));
    QVERIFY(lines.at(1).startsWith("dream,1,3,"));
    QVERIFY(lines.at(4).startsWith("fixed,1,3,"));
    // The caption table names both arms.
    QFile table(out.left(out.lastIndexOf(QLatin1Char('.'))) + QStringLiteral(".table.tex"));
    QVERIFY(table.open(QIODevice::ReadOnly));
    const QByteArray tex = table.readAll();
    QVERIFY(tex.contains("Dream-RSI") && tex.contains("Fixed exploration"));
}

void TestGuiSimulation::plotSimulationBadInput()
{
    const QString out = m_dir.filePath(QStringLiteral("bad.png"));
    const QString broken = m_dir.filePath(QStringLiteral("broken.json"));
    QFile f(broken);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"runs\": [{\"fixed\": true, \"iterations\": [{\"iteration\": 1}]}]}");
    f.close();
    QString err;
    QCOMPARE(plot({QStringLiteral("progress"), QStringLiteral("--simulation"), broken, QStringLiteral("--out"), out}, &err), 1);
    QVERIFY2(err.contains(QStringLiteral("broken.json")) && err.contains(QStringLiteral("cumulative_calls")), qPrintable(err));
    QVERIFY(!QFileInfo::exists(out));
    QCOMPARE(plot({QStringLiteral("progress"), QStringLiteral("--simulation"), m_dir.filePath(QStringLiteral("none.json")),
                   QStringLiteral("--out"), out},
                  &err),
             1);
    QVERIFY2(err.contains(QStringLiteral("none.json")), qPrintable(err));
    QCOMPARE(plot({QStringLiteral("progress"), QStringLiteral("--simulation"), m_json, QStringLiteral("--project"), broken,
                   QStringLiteral("--out"), out},
                  &err),
             2);
    QCOMPARE(plot({QStringLiteral("frontier"), QStringLiteral("--simulation"), m_json, QStringLiteral("--out"), out}, &err), 2);
}

void TestGuiSimulation::progressPageListsStoredRuns()
{
    const QString project = m_dir.filePath(QStringLiteral("listed.dreamrsi"));
    QFile p(project);
    QVERIFY(p.open(QIODevice::WriteOnly));
    p.close();
    QVERIFY(ProjectSimulations::save(project, m_text).ok());
    QVERIFY(ProjectSimulations::save(project, "{not json").ok());
    Workspace workspace;
    ProgressPage page(&workspace);
    page.resize(800, 600);
    page.setProject(project);
    QCOMPARE(page.views().size(), 3);
    QVERIFY(!page.shownSimulation());
    auto *view = page.findChild<QComboBox *>(QStringLiteral("progressView"));
    QVERIFY(view);
    QCustomPlot *projectPlot = page.plot();
    view->setCurrentIndex(1);
    QVERIFY(page.shownSimulation());
    QVERIFY(page.plot() != projectPlot);
    // Two arms, each a band (two graphs) and a mean curve, in two panels.
    QCOMPARE(page.plot()->plottableCount(), 2 * 3 * 2);
    QCOMPARE(page.plot()->legend->itemCount(), 2);
    view->setCurrentIndex(2);
    QVERIFY(!page.shownSimulation());
    const QLabel *hint = nullptr;
    for (const QLabel *l : page.findChildren<QLabel *>()) {
        if (l->text().startsWith(QStringLiteral("Cannot show this simulation")))
            hint = l;
    }
    QVERIFY2(hint, "the damaged run is reported");
    view->setCurrentIndex(0);
    QCOMPARE(page.plot(), projectPlot);
    // Another project: its own stored runs, the in-memory one kept.
    const Result<SimulationCurves> curves = ProjectSimulations::curvesFromJson(m_text);
    QVERIFY(curves.ok());
    page.showSimulation(QStringLiteral("kept"), *curves.value);
    page.setProject(QString());
    QCOMPARE(page.views(), (QStringList{page.views().first(), QStringLiteral("kept")}));
}

void TestGuiSimulation::dialogRunsStoresAndShows()
{
    const QString project = m_dir.filePath(QStringLiteral("dialog.dreamrsi"));
    QFile p(project);
    QVERIFY(p.open(QIODevice::WriteOnly));
    p.close();
    SimulationDialog dialog(synthWorlds(QStringLiteral("directions"), 3), project);
    QVERIFY(dialog.findChild<QRadioButton *>(QStringLiteral("fromProject"))->isChecked());
    auto *iterations = dialog.findChild<QSpinBox *>(QStringLiteral("iterations"));
    QCOMPARE(iterations->maximum(), 3); // T is at most the number of worlds
    iterations->setValue(2);
    dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(2);
    dialog.findChild<QSpinBox *>(QStringLiteral("versions"))->setValue(2);
    QSignalSpy simulated(&dialog, &SimulationDialog::simulated);
    dialog.findChild<QPushButton *>(QStringLiteral("start"))->click();
    QVERIFY(dialog.isRunning());
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("start"))->isEnabled());
    QTRY_COMPARE_WITH_TIMEOUT(simulated.count(), 1, 120000);
    QVERIFY(!dialog.isRunning());
    const auto curves = simulated.at(0).at(1).value<SimulationCurves>();
    QCOMPARE(curves.arms.size(), 2);
    QCOMPARE(curves.arms.at(0).repeats, 2);
    auto *progress = dialog.findChild<QProgressBar *>(QStringLiteral("progress"));
    QCOMPARE(progress->value(), progress->maximum());
    QCOMPARE(progress->maximum(), 2 * 2 * 2);
    QCOMPARE(ProjectSimulations::list(project).size(), 1);
}

void TestGuiSimulation::dialogStops()
{
    SimulationDialog dialog(synthWorlds(QStringLiteral("late"), 4), QString());
    dialog.findChild<QSpinBox *>(QStringLiteral("iterations"))->setValue(4);
    dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(10000);
    QSignalSpy simulated(&dialog, &SimulationDialog::simulated);
    dialog.findChild<QPushButton *>(QStringLiteral("start"))->click();
    auto *progress = dialog.findChild<QProgressBar *>(QStringLiteral("progress"));
    QTRY_VERIFY_WITH_TIMEOUT(progress->value() >= 2, 120000);
    dialog.findChild<QPushButton *>(QStringLiteral("stop"))->click();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isRunning(), 120000);
    QCOMPARE(simulated.count(), 1);
    QCOMPARE(simulated.at(0).at(0).toString(), QStringLiteral("Simulation (stopped)"));
    QVERIFY(progress->value() < progress->maximum());
}

void TestGuiSimulation::dialogKeepsTWhenTheSourceChanges()
{
    SimulationDialog dialog(synthWorlds(QStringLiteral("flat"), 8), QString());
    dialog.show();
    auto *iterations = dialog.findChild<QSpinBox *>(QStringLiteral("iterations"));
    QCOMPARE(iterations->value(), 5);
    // The folder source: no worlds known yet, T stays 5 …
    dialog.findChild<QRadioButton *>(QStringLiteral("fromFolder"))->setChecked(true);
    QCOMPARE(iterations->value(), 5);
    // … a folder of 12 tree files keeps it …
    QTemporaryDir many;
    for (int i = 0; i < 12; ++i) {
        QFile f(many.filePath(QStringLiteral("w%1.json").arg(i)));
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    dialog.findChild<QLineEdit *>(QStringLiteral("folder"))->setText(many.path());
    QTRY_COMPARE_WITH_TIMEOUT(iterations->maximum(), 12, 10000);
    QCOMPARE(iterations->value(), 5);
    // … one of 3 caps it, and the chosen 5 comes back with the project's 8 worlds.
    QTemporaryDir few;
    for (int i = 0; i < 3; ++i) {
        QFile f(few.filePath(QStringLiteral("w%1.json").arg(i)));
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    dialog.findChild<QLineEdit *>(QStringLiteral("folder"))->setText(few.path());
    QTRY_COMPARE_WITH_TIMEOUT(iterations->maximum(), 3, 10000);
    QCOMPARE(iterations->value(), 3);
    dialog.findChild<QRadioButton *>(QStringLiteral("fromProject"))->setChecked(true);
    QCOMPARE(iterations->maximum(), 8);
    QCOMPARE(iterations->value(), 5);
    // "Developer:" is shown whole: its label is as tall as its wrapped text needs.
    auto *developer = dialog.findChild<QLabel *>(QStringLiteral("developer"));
    QVERIFY(developer);
    QVERIFY(developer->text().contains(QStringLiteral("Developer:")));
    QTRY_VERIFY(developer->height() >= developer->heightForWidth(developer->width()));
}

void TestGuiSimulation::dialogKeepsTheFormPerProject()
{
    const QString project = m_dir.filePath(QStringLiteral("kept.dreamrsi"));
    const QString other = m_dir.filePath(QStringLiteral("other.dreamrsi"));
    QTemporaryDir folder;
    for (int i = 0; i < 12; ++i) {
        QFile f(folder.filePath(QStringLiteral("w%1.json").arg(i)));
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
    {
        // What a researcher types, then Close.
        SimulationDialog dialog(synthWorlds(QStringLiteral("flat"), 8), QString(), nullptr, project);
        dialog.findChild<QRadioButton *>(QStringLiteral("fromFolder"))->setChecked(true);
        dialog.findChild<QLineEdit *>(QStringLiteral("folder"))->setText(folder.path());
        auto *iterations = dialog.findChild<QSpinBox *>(QStringLiteral("iterations"));
        QTRY_COMPARE_WITH_TIMEOUT(iterations->maximum(), 12, 10000);
        iterations->setValue(10);
        dialog.findChild<QSpinBox *>(QStringLiteral("versions"))->setValue(7);
        dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(3);
        dialog.findChild<QComboBox *>(QStringLiteral("arms"))->setCurrentIndex(1);
        auto *floor = dialog.findChild<QCheckBox *>(QStringLiteral("floor"));
        QVERIFY(floor && floor->isChecked()); // the floor check is on unless turned off
        floor->setChecked(false);
        dialog.reject();
    }
    {
        // Opened again for the same project: as it was left.
        SimulationDialog dialog(synthWorlds(QStringLiteral("flat"), 8), QString(), nullptr, project);
        QVERIFY(dialog.findChild<QRadioButton *>(QStringLiteral("fromFolder"))->isChecked());
        QCOMPARE(dialog.findChild<QLineEdit *>(QStringLiteral("folder"))->text(), folder.path());
        auto *iterations = dialog.findChild<QSpinBox *>(QStringLiteral("iterations"));
        QTRY_COMPARE_WITH_TIMEOUT(iterations->maximum(), 12, 10000);
        QCOMPARE(iterations->value(), 10);
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("versions"))->value(), 7);
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->value(), 3);
        QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("arms"))->currentIndex(), 1);
        QVERIFY(!dialog.findChild<QCheckBox *>(QStringLiteral("floor"))->isChecked());
    }
    {
        // Another project starts from the defaults.
        SimulationDialog dialog(synthWorlds(QStringLiteral("flat"), 8), QString(), nullptr, other);
        QVERIFY(dialog.findChild<QRadioButton *>(QStringLiteral("fromProject"))->isChecked());
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("iterations"))->value(), 5);
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("versions"))->value(), 4);
        QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->value(), 20);
        QVERIFY(dialog.findChild<QCheckBox *>(QStringLiteral("floor"))->isChecked());
    }
}

// Issue 53: the log said a dream overrides "the project's W 10" (the
// in-memory dream's defaults) of a project whose W is 4.
void TestGuiSimulation::dialogNamesTheProjectsConfiguration()
{
    ReplayConfig four;
    four.workers = 4;
    const QString line = QStringLiteral("  dream: replay configuration: W 3, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8 "
                                        "(overrides the project's W 10, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8 for this dream)");
    QCOMPARE(SimulationDialog::logLine(line, four),
             QStringLiteral("  dream: replay configuration: W 3, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8 "
                            "(overrides the project's W 4, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8 for this simulation)"));
    ReplayConfig three;
    three.workers = 3;
    QCOMPARE(SimulationDialog::logLine(line, three),
             QStringLiteral("  dream: replay configuration: W 3, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8 (the project's)"));
    // Without a project: no project's configuration is claimed.
    QVERIFY(!SimulationDialog::logLine(line, std::nullopt).contains(QStringLiteral("project's W")));
    // What the in-memory dream says today: no project of its own.
    const QString own = QStringLiteral("  dream: replay configuration: W 3, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8 "
                                       "(this dream's; no project)");
    QCOMPARE(SimulationDialog::logLine(own, four), SimulationDialog::logLine(line, four));
    QVERIFY(!SimulationDialog::logLine(own, std::nullopt).contains(QStringLiteral("project's W")));
    // Other lines as they are.
    QCOMPARE(SimulationDialog::logLine(QStringLiteral("reading 3 worlds"), four), QStringLiteral("reading 3 worlds"));

    // A run of the dialog over a project whose W is 4, at W 3.
    const QString project = m_dir.filePath(QStringLiteral("w4.dreamrsi"));
    {
        auto writer = ProjectWriter::create(project, ProjectInfo{});
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        QVERIFY((*writer.value)->setReplayConfig(four).ok());
    }
    SimulationDialog dialog(synthWorlds(QStringLiteral("directions"), 2), QString(), nullptr, project);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isReadingProject(), 10000);
    QVERIFY2(dialog.projectConfig(), qPrintable(dialog.projectError()));
    QCOMPARE(dialog.projectConfig()->workers, 4);
    dialog.findChild<QSpinBox *>(QStringLiteral("iterations"))->setValue(2);
    dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(1);
    dialog.findChild<QSpinBox *>(QStringLiteral("versions"))->setValue(2);
    dialog.findChild<QSpinBox *>(QStringLiteral("workers"))->setValue(3);
    dialog.findChild<QComboBox *>(QStringLiteral("arms"))->setCurrentIndex(1); // Dream-RSI only
    QSignalSpy simulated(&dialog, &SimulationDialog::simulated);
    dialog.findChild<QPushButton *>(QStringLiteral("start"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(simulated.count(), 1, 120000);
    const QString log = dialog.findChild<QPlainTextEdit *>(QStringLiteral("log"))->toPlainText();
    QVERIFY2(log.contains(QStringLiteral("replay configuration: W 3, ")), qPrintable(log));
    QVERIFY2(log.contains(QStringLiteral("(overrides the project's W 4, ")), qPrintable(log));
    QVERIFY2(!log.contains(QStringLiteral("W 10")), qPrintable(log));
}

// The valuation: the project's by default (here revealed, with its C), or
// chosen; passed to the loop as `dreamrsi loop --valuation` passes it.
void TestGuiSimulation::dialogChoosesTheValuation()
{
    const QString project = m_dir.filePath(QStringLiteral("revealed.dreamrsi"));
    {
        auto writer = ProjectWriter::create(project, ProjectInfo{});
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        ReplayConfig config;
        config.workers = 4;
        config.valuation = Valuation::Revealed;
        config.completions = 3;
        QVERIFY((*writer.value)->setReplayConfig(config).ok());
    }
    const auto run = [&](const QString &valuation) -> QJsonObject {
        SimulationDialog dialog(synthWorlds(QStringLiteral("directions"), 2), project, nullptr, project);
        auto *box = dialog.findChild<QComboBox *>(QStringLiteral("valuation"));
        if (!box)
            return {};
        if (!QTest::qWaitFor([&] { return !dialog.isReadingProject(); }, 10000))
            return {};
        // The project's is the default, and says so.
        if (box->currentData().toString() != QLatin1String("revealed") || !box->currentText().contains(QStringLiteral("the project's")))
            return {};
        if (!valuation.isEmpty())
            box->setCurrentIndex(box->findData(valuation));
        dialog.findChild<QSpinBox *>(QStringLiteral("iterations"))->setValue(2);
        dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(1);
        dialog.findChild<QSpinBox *>(QStringLiteral("versions"))->setValue(2);
        dialog.findChild<QComboBox *>(QStringLiteral("arms"))->setCurrentIndex(1);
        QSignalSpy simulated(&dialog, &SimulationDialog::simulated);
        const qsizetype before = ProjectSimulations::list(project).size();
        dialog.findChild<QPushButton *>(QStringLiteral("start"))->click();
        if (!QTest::qWaitFor([&] { return simulated.count() == 1; }, 120000))
            return {};
        const QList<StoredSimulation> stored = ProjectSimulations::list(project);
        if (stored.size() != before + 1)
            return {};
        QFile f(stored.last().path);
        if (!f.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("config")).toObject();
    };
    const QJsonObject byDefault = run(QString());
    QCOMPARE(byDefault.value(QStringLiteral("valuation")).toString(), QStringLiteral("revealed"));
    QCOMPARE(byDefault.value(QStringLiteral("completions")).toInt(), 3);
    QCOMPARE(run(QStringLiteral("oracle")).value(QStringLiteral("valuation")).toString(), QStringLiteral("oracle"));
    QCOMPARE(run(QStringLiteral("imagined")).value(QStringLiteral("valuation")).toString(), QStringLiteral("imagined"));
}

QTEST_MAIN(TestGuiSimulation)
// One study, one answer (issue 54): Simulate the Loop and `dreamrsi loop
// --worlds … --project P` both start from the project's replay
// configuration (CounterfactualSettings::forProject: W, K, λ, the β grid,
// the valuation and C), so the same worlds and seed give the same curves.
void TestGuiSimulation::dialogAndCommandStartFromTheProject()
{
    const QString project = m_dir.filePath(QStringLiteral("study.dreamrsi"));
    ReplayConfig config;
    config.workers = 3;
    config.lambda = 0.2;
    config.betas = {0.0, 0.5, 1.0};
    config.completions = 2;
    {
        auto writer = ProjectWriter::create(project, ProjectInfo{});
        QVERIFY2(writer.ok(), qPrintable(writer.error));
        QVERIFY((*writer.value)->setReplayConfig(config).ok());
    }
    QVERIFY(CounterfactualSettings::forProject(config).replayConfig() == config);
    QVERIFY(CounterfactualSettings::forProject(std::nullopt).replayConfig() == CounterfactualSettings().replayConfig());
    const QString worlds = m_dir.filePath(QStringLiteral("study-worlds"));
    const test::CliRun synth = test::runDreamrsi({QStringLiteral("synth"), QStringLiteral("--out"), worlds, QStringLiteral("--worlds"),
                                                  QStringLiteral("3"), QStringLiteral("--seed"), QStringLiteral("7"),
                                                  QStringLiteral("--regime"), QStringLiteral("late"), QStringLiteral("--width"),
                                                  QStringLiteral("6"), QStringLiteral("--depth"), QStringLiteral("6")});
    QVERIFY2(synth.finished && synth.exitCode == 0, synth.err.constData());

    // The command: nothing but the worlds, T, M, the seed and the project.
    const test::CliRun command = test::runDreamrsi({QStringLiteral("loop"), QStringLiteral("--world-dir"), worlds,
                                                    QStringLiteral("--iterations"), QStringLiteral("3"), QStringLiteral("--versions"),
                                                    QStringLiteral("2"), QStringLiteral("--seed"), QStringLiteral("0"),
                                                    QStringLiteral("--project"), project, QStringLiteral("--json")});
    QVERIFY2(command.finished && command.exitCode == 0, command.err.constData());
    const QJsonObject written = QJsonDocument::fromJson(command.out).object();
    QCOMPARE(written.value(QStringLiteral("config")).toObject().value(QStringLiteral("workers")).toInt(), 3);
    QCOMPARE(written.value(QStringLiteral("config")).toObject().value(QStringLiteral("floor")).toBool(), true); // the dialog's default
    const Result<SimulationCurves> fromCommand = ProjectSimulations::curvesFromJson(command.out);
    QVERIFY2(fromCommand.ok(), qPrintable(fromCommand.error));

    // The dialog on the same folder, its form untouched: W shows the project's 3.
    SimulationDialog dialog(QList<ReplayWorld>{}, QString(), nullptr, project);
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isReadingProject(), 10000);
    QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("workers"))->value(), 3);
    QCOMPARE(dialog.findChild<QSpinBox *>(QStringLiteral("workers"))->maximum(), ReplayBounds::MaxWorkers);
    dialog.findChild<QRadioButton *>(QStringLiteral("fromFolder"))->setChecked(true);
    dialog.findChild<QLineEdit *>(QStringLiteral("folder"))->setText(worlds);
    auto *iterations = dialog.findChild<QSpinBox *>(QStringLiteral("iterations"));
    QTRY_COMPARE_WITH_TIMEOUT(iterations->maximum(), 3, 10000);
    iterations->setValue(3);
    dialog.findChild<QSpinBox *>(QStringLiteral("repeats"))->setValue(1);
    dialog.findChild<QSpinBox *>(QStringLiteral("versions"))->setValue(2);
    dialog.findChild<QComboBox *>(QStringLiteral("arms"))->setCurrentIndex(1); // Dream-RSI only, as the command without --compare
    QSignalSpy simulated(&dialog, &SimulationDialog::simulated);
    dialog.findChild<QPushButton *>(QStringLiteral("start"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(simulated.count(), 1, 120000);
    const auto fromDialog = simulated.at(0).at(1).value<SimulationCurves>();
    QCOMPARE(fromDialog.arms.size(), fromCommand.value->arms.size());
    for (qsizetype a = 0; a < fromDialog.arms.size(); ++a) {
        QCOMPARE(fromDialog.arms.at(a).arm, fromCommand.value->arms.at(a).arm);
        QCOMPARE(fromDialog.arms.at(a).callsMean, fromCommand.value->arms.at(a).callsMean);
        QCOMPARE(fromDialog.arms.at(a).attainmentMean, fromCommand.value->arms.at(a).attainmentMean);
    }
    const QString log = dialog.findChild<QPlainTextEdit *>(QStringLiteral("log"))->toPlainText();
    QVERIFY2(log.contains(QStringLiteral("replay configuration: W 3, λ 0.2, β {0, 0.5, 1}, no K, imagined C 2 (the project's)")),
             qPrintable(log));
}

#include "tst_gui_simulation.moc"
