// The person's preferences as one observable object (session/preferences.h,
// docs/architecture.md#decided-once), offscreen: set() emits the signal of
// each group of fields that changed, once, and nothing for what did not;
// the values go to QSettings under their old keys and come back in a new
// object; preferences held in memory write nothing; the agent time limit is
// one setting with Launch Round (the dialog shows the preferences' value,
// follows it while open, and gives it back when accepted); and the window's
// other remembered values (session/uistate.h) keep their keys.
#include "live/launchrounddialog.h"
#include "session/preferences.h"
#include "session/uistate.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <functional>
#include <memory>

using namespace dreamrsi;

namespace {

/// One spy per signal of a Preferences, counted together.
struct Spies
{
    explicit Spies(Preferences *p)
        : theme(p, &Preferences::themeChanged), looseReplay(p, &Preferences::looseReplayChanged),
          limits(p, &Preferences::scriptLimitsChanged),
          approximate(p, &Preferences::includeApproximateChanged),
          playInterval(p, &Preferences::playIntervalChanged), prices(p, &Preferences::pricesChanged),
          slurm(p, &Preferences::slurmChanged), agentTimeLimit(p, &Preferences::agentTimeLimitChanged),
          userName(p, &Preferences::userNameChanged), changed(p, &Preferences::changed)
    {
    }
    /// Each group's count, in the order of the signals, then changed().
    QList<int> counts() const
    {
        return {int(theme.count()),       int(looseReplay.count()),    int(limits.count()),
                int(approximate.count()), int(playInterval.count()),   int(prices.count()),
                int(slurm.count()),       int(agentTimeLimit.count()), int(userName.count()),
                int(changed.count())};
    }
    void clear()
    {
        for (QSignalSpy *s : {&theme, &looseReplay, &limits, &approximate, &playInterval, &prices, &slurm,
                              &agentTimeLimit, &userName, &changed})
            s->clear();
    }
    QSignalSpy theme, looseReplay, limits, approximate, playInterval, prices, slurm, agentTimeLimit, userName,
        changed;
};

} // namespace

class TestPreferences : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init() { QSettings().clear(); }
    void oneSignalPerChangedGroup();
    void persistsAndReloads();
    void inMemoryWritesNothing();
    void agentTimeLimitSharedWithLaunchRound();
    void uiStateKeepsItsKeys();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestPreferences::initTestCase()
{
    // Preferences go to a folder of this run, never the person's own.
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-test-preferences"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_preferences"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_dir->path());
}

void TestPreferences::oneSignalPerChangedGroup()
{
    Preferences preferences;
    Spies spies(&preferences);
    const AppSettings defaults = preferences.settings();
    QCOMPARE(defaults.theme, Preferences::of(nullptr).theme); // nothing stored yet: the defaults

    // The same values again: nothing changed, nothing said.
    preferences.set(defaults);
    QCOMPARE(spies.counts(), (QList<int>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));

    // One field: its group's signal with the value, then changed(); nothing else.
    AppSettings s = defaults;
    s.theme = AppSettings::Theme::Dark;
    preferences.set(s);
    QCOMPARE(spies.counts(), (QList<int>{1, 0, 0, 0, 0, 0, 0, 0, 0, 1}));
    QCOMPARE(spies.theme.first().first().value<AppSettings::Theme>(), AppSettings::Theme::Dark);
    spies.clear();

    // Several fields of one group: its signal once.
    s.workers = 3;
    s.lambda = 0.4;
    s.betas = {0.0, 1.0};
    preferences.set(s);
    QCOMPARE(spies.counts(), (QList<int>{0, 1, 0, 0, 0, 0, 0, 0, 0, 1}));
    QCOMPARE(preferences.settings().looseReplayConfig().betas, (QList<double>{0.0, 1.0}));
    spies.clear();

    // Each other group alone.
    const QList<std::function<void(AppSettings &)>> edits = {
        [](AppSettings &a) { a.replayWallLimitS += 1; },
        [](AppSettings &a) { a.includeApproximate = !a.includeApproximate; },
        [](AppSettings &a) { a.playIntervalMs += 10; },
        [](AppSettings &a) {
            a.prices.setPrice(ModelPrice{QStringLiteral("preferences-test-model"), 1.0, 2.0});
        },
        [](AppSettings &a) { a.slurmQos = QStringLiteral("short"); },
        [](AppSettings &a) { a.agentTimeLimitMin = 33; },
        [](AppSettings &a) { a.userName = QStringLiteral("Ada"); },
    };
    for (int i = 0; i < int(edits.size()); ++i) {
        edits.at(i)(s);
        preferences.set(s);
        QList<int> expected(10, 0);
        expected[2 + i] = 1;
        expected[9] = 1;
        QCOMPARE(spies.counts(), expected);
        spies.clear();
    }
    QCOMPARE(preferences.settings().userName, QStringLiteral("Ada"));
    QCOMPARE(preferences.settings().agentTimeLimitMin, 33);

    // Every group at once: each signal once, changed() once, every field in
    // place by the first signal.
    AppSettings all = Preferences::of(nullptr); // the defaults
    all.theme = AppSettings::Theme::Light;
    bool wholeAtFirstSignal = false;
    connect(
        &preferences, &Preferences::themeChanged, this,
        [&] {
            wholeAtFirstSignal =
                preferences.settings().userName.isEmpty() && preferences.settings().workers == 10;
        },
        Qt::SingleShotConnection);
    preferences.set(all);
    QCOMPARE(spies.counts(), (QList<int>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1}));
    QVERIFY(wholeAtFirstSignal);
    spies.clear();

    // The one-field setters: a value it already has says nothing.
    preferences.setTheme(AppSettings::Theme::Light);
    preferences.setAgentTimeLimitMin(all.agentTimeLimitMin);
    QCOMPARE(spies.changed.count(), 0);
    preferences.setAgentTimeLimitMin(AppSettings::MaxAgentTimeLimitMin + 1); // clamped
    QCOMPARE(spies.agentTimeLimit.count(), 1);
    QCOMPARE(spies.agentTimeLimit.first().first().toInt(), AppSettings::MaxAgentTimeLimitMin);
}

void TestPreferences::persistsAndReloads()
{
    {
        Preferences preferences;
        QVERIFY(preferences.isStored());
        AppSettings s = preferences.settings();
        s.theme = AppSettings::Theme::Dark;
        s.includeApproximate = true;
        s.playIntervalMs = 250;
        s.slurmPartition = QStringLiteral("gpu");
        s.agentTimeLimitMin = 42;
        s.userName = QStringLiteral("Ada");
        preferences.set(s);
    }
    // The keys users' workbenches already hold.
    QSettings raw;
    QCOMPARE(raw.value(QStringLiteral("ui/theme")).toInt(), int(AppSettings::Theme::Dark));
    QCOMPARE(raw.value(QStringLiteral("replay/includeApproximate")).toBool(), true);
    QCOMPARE(raw.value(QStringLiteral("replay/playIntervalMs")).toInt(), 250);
    QCOMPARE(raw.value(QStringLiteral("slurm/partition")).toString(), QStringLiteral("gpu"));
    QCOMPARE(raw.value(QStringLiteral("agent/timeLimitMin")).toInt(), 42);
    QCOMPARE(raw.value(QStringLiteral("ui/userName")).toString(), QStringLiteral("Ada"));

    // A new object (the next session) reads them back.
    Preferences again;
    QCOMPARE(again.settings().theme, AppSettings::Theme::Dark);
    QVERIFY(again.settings().includeApproximate);
    QCOMPARE(again.settings().playIntervalMs, 250);
    QCOMPARE(again.settings().slurm().partition, QStringLiteral("gpu"));
    QCOMPARE(again.settings().agentTimeLimitMin, 42);
    QCOMPARE(again.settings().steeringName(), QStringLiteral("Ada"));
}

void TestPreferences::inMemoryWritesNothing()
{
    AppSettings initial = Preferences::of(nullptr); // the defaults
    initial.scriptTimeLimitMs = 300;
    Preferences preferences(initial);
    QVERIFY(!preferences.isStored());
    QCOMPARE(preferences.settings().scriptTimeLimitMs, 300);
    QSignalSpy limits(&preferences, &Preferences::scriptLimitsChanged);
    AppSettings s = initial;
    s.scriptTimeLimitMs = 400;
    preferences.set(s);
    QCOMPARE(limits.count(), 1); // observable all the same
    QVERIFY(!QSettings().contains(QStringLiteral("replay/timeLimitMs")));
    QCOMPARE(Preferences::of(nullptr).scriptTimeLimitMs, 2000); // no preferences: the defaults
}

void TestPreferences::agentTimeLimitSharedWithLaunchRound()
{
    Preferences preferences;
    preferences.setAgentTimeLimitMin(20); // as Settings would
    QSignalSpy limit(&preferences, &Preferences::agentTimeLimitChanged);
    QSignalSpy slurm(&preferences, &Preferences::slurmChanged);
    {
        LaunchRoundDialog dialog({}, &preferences);
        auto *field = qobject_cast<QSpinBox *>(dialog.field(QStringLiteral("agentTimeLimit")));
        QVERIFY(field);
        QCOMPARE(field->value(), 20);         // the preferences' value
        preferences.setAgentTimeLimitMin(25); // Settings changed it while the dialog is open
        QCOMPARE(field->value(), 25);
        limit.clear();
        field->setValue(50);
        qobject_cast<QComboBox *>(dialog.field(QStringLiteral("task")))
            ->setCurrentText(QStringLiteral("lasso_path"));
        qobject_cast<QLineEdit *>(dialog.field(QStringLiteral("partition")))->setText(QStringLiteral("gpu"));
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }
    // Given back to the preferences: one signal each, what Settings shows next.
    QCOMPARE(limit.count(), 1);
    QCOMPARE(limit.first().first().toInt(), 50);
    QCOMPARE(slurm.count(), 1);
    QCOMPARE(preferences.settings().agentTimeLimitMin, 50);
    QCOMPARE(preferences.settings().slurmPartition, QStringLiteral("gpu"));
    QCOMPARE(AppSettings::load().agentTimeLimitMin, 50); // and stored
    // The dialog's own choices stay in its group; the next one shows both.
    QCOMPARE(QSettings().value(QStringLiteral("launchRound/task")).toString(), QStringLiteral("lasso_path"));
    LaunchRoundDialog next({}, &preferences);
    QCOMPARE(qobject_cast<QSpinBox *>(next.field(QStringLiteral("agentTimeLimit")))->value(), 50);
    QCOMPARE(qobject_cast<QComboBox *>(next.field(QStringLiteral("task")))->currentText(),
             QStringLiteral("lasso_path"));
}

void TestPreferences::uiStateKeepsItsKeys()
{
    QSettings raw;
    // Open Recent: the latest first, no duplicates, at most MaxRecent.
    raw.setValue(QStringLiteral("recentProjects"), QStringList{QStringLiteral("/tmp/a.dreamrsi")});
    QCOMPARE(UiState::recentProjects(), QStringList{QStringLiteral("/tmp/a.dreamrsi")});
    for (int i = 0; i < UiState::MaxRecent + 2; ++i)
        UiState::addRecentFile(QStringLiteral("/tmp/%1.json").arg(i));
    UiState::addRecentFile(QStringLiteral("/tmp/5.json"));
    const QStringList files = UiState::recentFiles();
    QCOMPARE(files.size(), UiState::MaxRecent);
    QCOMPARE(files.first(), QStringLiteral("/tmp/5.json"));
    QCOMPARE(files.count(QStringLiteral("/tmp/5.json")), 1);
    QCOMPARE(raw.value(QStringLiteral("recentFiles")).toStringList(), files);
    UiState::addRecentServer(QStringLiteral("http://host:8080/"));
    QCOMPARE(raw.value(QStringLiteral("recentServers")).toStringList(),
             QStringList{QStringLiteral("http://host:8080/")});
    UiState::clearRecentFilesAndProjects();
    QVERIFY(UiState::recentFiles().isEmpty() && UiState::recentProjects().isEmpty());
    QCOMPARE(UiState::recentServers().size(), 1); // the servers apart
    UiState::clearRecentServers();
    QVERIFY(!raw.contains(QStringLiteral("recentServers")));

    // Folders and the window's layout.
    raw.setValue(QStringLiteral("lastProjectDir"), QStringLiteral("/tmp/projects"));
    QCOMPARE(UiState::lastProjectDir(), QStringLiteral("/tmp/projects"));
    UiState::setLastDir(QStringLiteral("/tmp/runs"));
    QCOMPARE(raw.value(QStringLiteral("lastDir")).toString(), QStringLiteral("/tmp/runs"));
    UiState::setWindowLayout("geometry", "state");
    QCOMPARE(raw.value(QStringLiteral("mainWindow/geometry")).toByteArray(), QByteArray("geometry"));
    QCOMPARE(UiState::windowState(), QByteArray("state"));

    // Export Figure…: nothing stored, the defaults; then what was chosen.
    QVERIFY(!UiState::exportForm().dir);
    QCOMPARE(UiState::exportForm().dpi, 300);
    raw.setValue(QStringLiteral("export/dir"), QStringLiteral("/tmp/figures"));
    raw.setValue(QStringLiteral("export/dpi"), 600);
    QCOMPARE(UiState::exportForm().dir.value_or(QString()), QStringLiteral("/tmp/figures"));
    QCOMPARE(UiState::exportForm().dpi, 600);
    UiState::ExportForm form = UiState::exportForm();
    form.widthMm = 85;
    UiState::setExportForm(form);
    QCOMPARE(raw.value(QStringLiteral("export/widthMm")).toDouble(), 85.0);

    // The Compare set and the simulation form of a project, by its path.
    UiState::CompareSet set;
    set.axis = QStringLiteral("calls");
    set.metric = QStringLiteral("score");
    set.sources.append({1, QStringLiteral("/tmp/run"), QStringLiteral("seed 1"), QStringLiteral("2-5")});
    UiState::setCompareSet(QStringLiteral("/tmp/p.dreamrsi"), set);
    const UiState::CompareSet read = UiState::compareSet(QStringLiteral("/tmp/p.dreamrsi"));
    QCOMPARE(read.axis.value_or(QString()), QStringLiteral("calls"));
    QCOMPARE(read.sources.size(), qsizetype(1));
    QCOMPARE(read.sources.first().iterations, QStringLiteral("2-5"));
    QVERIFY(UiState::compareSet(QString()).sources.isEmpty());
    QVERIFY(!UiState::compareSet(QString()).axis);
    const QString group =
        QStringLiteral("compare/") +
        QString::fromLatin1(QFileInfo(QStringLiteral("/tmp/p.dreamrsi")).absoluteFilePath().toUtf8().toHex());
    QCOMPARE(raw.value(group + QStringLiteral("/metric")).toString(), QStringLiteral("score"));
    QVERIFY(!UiState::simulationForm(QStringLiteral("/tmp/p.dreamrsi")));
    UiState::SimulationForm simulation;
    simulation.repeats = 7;
    UiState::setSimulationForm(QStringLiteral("/tmp/p.dreamrsi"), simulation);
    QCOMPARE(UiState::simulationForm(QStringLiteral("/tmp/p.dreamrsi"))->repeats, 7);

    // Launch Round's form: an older version's cluster keys read once, removed on the next save.
    raw.setValue(QStringLiteral("launchRound/account"), QStringLiteral("lab"));
    UiState::LaunchRoundForm launch = UiState::launchRoundForm();
    QVERIFY(!launch.task);
    QCOMPARE(launch.oldCluster.size(), qsizetype(1));
    QCOMPARE(launch.oldCluster.first().second, QStringLiteral("lab"));
    launch.task = QStringLiteral("lasso_path");
    UiState::setLaunchRoundForm(launch);
    QVERIFY(!raw.contains(QStringLiteral("launchRound/account")));
    QCOMPARE(UiState::launchRoundForm().task.value_or(QString()), QStringLiteral("lasso_path"));
}

QTEST_MAIN(TestPreferences)
#include "tst_preferences.moc"
