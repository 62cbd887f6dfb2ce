// File ▸ Connect to Server… (docs/remote.md) offscreen, with real processes
// on 127.0.0.1: `dreamrsi serve` on a copy of the demo project, connected to
// through the dialog's own code path (the action, the fields, Connect),
// shows the same worlds (tree for tree), cells, versions and Frontiers
// values as opening the file, says "remote: HOST" in the title and the
// status bar, lists the server in Open Recent without its token and fetches
// an artifact once; opening a cell shows its program and, on the inspector's
// Files page, the files it refers to fetched from the server (each once); a
// wrong token gets the server's 401 in a message box. A
// live round of the built-in agent served in a second process grows on
// screen in the Live Round panel, every cell once, and becomes a world when
// it ends; a served project survives its server being restarted (the
// follower resumes after the last seq, no cell twice). A served loop that
// waits for approval shows the approval bar in the remote panel, and the
// answer given there reaches the loop through the server. With
// DREAMRSI_SCREENSHOT_DIR set, the live round is grabbed as 28-remote.png.
// The Progress and Compare tabs of a served project read its iterations'
// temporary copy: the same progress curve and compare curve as the file's,
// the copy made again when a served round ends, removed on disconnect.
#include "clirunsupport.h"
#include "servefixture.h"

#include "live/approvalbar.h"
#include "progress/comparepage.h"
#include "progress/progresspage.h"
#include "live/roundpanel.h"
#include "models/livetreemodel.h"
#include "models/workspace.h"
#include "remote/connectdialog.h"
#include "window/remoteworkbench.h"
#include "session/remotefollower.h"
#include "session/remoteprojectsession.h"
#include "session/roundcontroller.h"
#include "tree/cellspage.h"
#include "tree/inspectorwidget.h"
#include "window/mainwindow.h"

#include "model/treejson.h"
#include "models/celltablemodel.h"
#include "store/projectreader.h"

#include <QAction>
#include <QCheckBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QTabWidget>
#include <QTableView>
#include <QSortFilterProxyModel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;
using namespace dreamrsi::test;

namespace {

/// The Connect to Server dialog the action opens.
ConnectDialog *openDialog(MainWindow &window)
{
    QAction *action = window.findChild<QAction *>(QStringLiteral("actionConnectToServer"));
    if (!action)
        return nullptr;
    action->trigger();
    // The one on screen (an earlier one may wait for its deletion).
    for (ConnectDialog *d : window.findChildren<ConnectDialog *>(QStringLiteral("connectDialog"))) {
        if (d->isVisible())
            return d;
    }
    return nullptr;
}

/// Fills the dialog and presses Connect.
void connectThrough(ConnectDialog *dialog, const QString &url, const QByteArray &token, const QByteArray &steering = {})
{
    dialog->findChild<QLineEdit *>(QStringLiteral("urlEdit"))->setText(url);
    dialog->findChild<QLineEdit *>(QStringLiteral("tokenEdit"))->setText(QString::fromLatin1(token));
    dialog->findChild<QLineEdit *>(QStringLiteral("steeringTokenEdit"))->setText(QString::fromLatin1(steering));
    dialog->findChild<QPushButton *>(QStringLiteral("connectButton"))->click();
}

bool copyDir(const QString &from, const QString &to)
{
    QDir().mkpath(to);
    for (const QFileInfo &entry : QDir(from).entryInfoList(QDir::Files | QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QString target = QDir(to).filePath(entry.fileName());
        if (entry.isDir() ? !copyDir(entry.filePath(), target) : !QFile::copy(entry.filePath(), target))
            return false;
    }
    return true;
}

/// `window` shown at 1600×1000 (the Live Round dock at its size) and
/// connected to `url` through the dialog with the read and the steering
/// token: its RemoteWorkbench once the served project is loaded (60 s),
/// else null.
RemoteWorkbench *showConnectedSteering(MainWindow &window, const QString &url, const ServeTokens &tokens)
{
    window.resize(1600, 1000);
    window.show();
    auto *remote = window.findChild<RemoteWorkbench *>(QStringLiteral("remoteWorkbench"));
    ConnectDialog *dialog = openDialog(window);
    if (!remote || !dialog)
        return nullptr;
    QSignalSpy loaded(remote, &RemoteWorkbench::loaded);
    connectThrough(dialog, url, tokens.read, tokens.steer);
    return loaded.wait(60000) ? remote : nullptr;
}

/// A writable copy of the bundled demo (resources/demo) at `project`, with
/// its artifact folder, opened in `local` as a project file (60 s).
bool openDemoCopy(MainWindow &local, const QString &project)
{
    if (!QFile::copy(QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi"), project)
        || !copyDir(QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi-artifacts"), project + QStringLiteral("-artifacts"))
        || !QFile::setPermissions(project, QFile::permissions(project) | QFileDevice::WriteOwner))
        return false;
    QSignalSpy loaded(&local, &MainWindow::projectLoaded);
    local.openProject(project);
    return loaded.wait(60000);
}

} // namespace

class TestGuiRemote : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    ServeTokens m_tokens;

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-test-gui-remote"));
        QVERIFY(m_dir.isValid());
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_dir.path());
        QVERIFY(m_tokens.writeInto(m_dir.path()));
    }

    void servedProjectShowsWhatTheFileShows()
    {
        // A copy of the demo: the file opened in one window, served to another.
        const QString project = m_dir.filePath(QStringLiteral("demo.dreamrsi"));
        MainWindow local;
        QVERIFY(openDemoCopy(local, project));

        auto served = serve(project, m_tokens.readArgs());
        QVERIFY2(served.port != 0, served.banner.constData());
        const QString host = QStringLiteral("127.0.0.1:%1").arg(served.port);

        MainWindow window;
        window.show();
        auto *remote = window.findChild<RemoteWorkbench *>(QStringLiteral("remoteWorkbench"));
        QVERIFY(remote);

        // A wrong token: the server's 401, said in a message box; nothing opens.
        ConnectDialog *dialog = openDialog(window);
        QVERIFY(dialog);
        QSignalSpy failed(remote, &RemoteWorkbench::connectFailed);
        connectThrough(dialog, served.url(), "wrong-token-0123456789abcdef");
        QVERIFY(failed.wait(20000));
        QVERIFY2(failed.first().at(1).toString().contains(QStringLiteral("401")), qPrintable(failed.first().at(1).toString()));
        QTRY_VERIFY(window.findChild<QMessageBox *>(QStringLiteral("connectFailedBox")));
        window.findChild<QMessageBox *>(QStringLiteral("connectFailedBox"))->close();
        QVERIFY(!remote->isConnected());

        // A token too short is refused in the dialog itself, before anything is sent.
        dialog = openDialog(window);
        QVERIFY(dialog);
        connectThrough(dialog, served.url(), "short");
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("errorLabel"))->text().contains(QStringLiteral("16")));
        // No secret service runs here (tests, CI): the dialog says so and keeps the token for the session.
        QSignalSpy checked(dialog, &ConnectDialog::keychainChecked);
        if (!dialog->keychainAvailable() && checked.isEmpty())
            QVERIFY(checked.wait(10000) || dialog->findChild<QLabel *>(QStringLiteral("keychainNote"))->text().contains(QStringLiteral("session")));
        if (!dialog->keychainAvailable()) {
            QVERIFY(!dialog->findChild<QCheckBox *>(QStringLiteral("rememberCheck"))->isEnabled());
            QVERIFY(dialog->findChild<QLabel *>(QStringLiteral("keychainNote"))->text().contains(QStringLiteral("this session only")));
        }
        QSignalSpy loaded(remote, &RemoteWorkbench::loaded);
        connectThrough(dialog, served.url(), m_tokens.read);
        QVERIFY(loaded.wait(60000));
        QVERIFY(remote->isConnected());

        // The same worlds, tree for tree, and the same versions and values.
        const auto &mine = window.workspace()->worlds();
        const auto &theirs = local.workspace()->worlds();
        QCOMPARE(mine.size(), theirs.size());
        QVERIFY(!mine.isEmpty());
        for (qsizetype i = 0; i < mine.size(); ++i) {
            QCOMPARE(mine.at(i).name, theirs.at(i).name);
            QCOMPARE(mine.at(i).iteration, theirs.at(i).iteration);
            QCOMPARE(TreeJson::serialize(*mine.at(i).tree), TreeJson::serialize(*theirs.at(i).tree));
        }
        QCOMPARE(window.workspace()->versions().size(), local.workspace()->versions().size());
        int valued = 0;
        for (const PolicyVersion &v : local.workspace()->versions()) {
            QVERIFY2(window.workspace()->indexOfVersion(v.name) >= 0, qPrintable(v.name));
            const ReplayResultPtr a = local.workspace()->result(v.name);
            const ReplayResultPtr b = window.workspace()->result(v.name);
            QCOMPARE(bool(a), bool(b));
            if (a && a->value) {
                QVERIFY(b->value);
                QCOMPARE(*b->value, *a->value); // what Frontiers draws
                ++valued;
            }
        }
        QVERIFY(valued > 0);
        QCOMPARE(window.workspace()->approvals().size(), local.workspace()->approvals().size());
        // The Cells tab shows the first world's cells.
        QCOMPARE(window.currentWorld(), 0);
        QCOMPARE(window.cellModel()->rowCount(), int(theirs.first().tree->cellCount()));

        // "remote: HOST" in the title and the status bar.
        QVERIFY2(window.windowTitle().contains(QStringLiteral("remote: ") + host), qPrintable(window.windowTitle()));
        QVERIFY(remote->statusLabel()->isVisible());
        QCOMPARE(remote->statusLabel()->text(), QStringLiteral("remote: ") + host);
        window.setCurrentWorld(1); // the window names the world shown; the host stays
        QVERIFY2(window.windowTitle().contains(QStringLiteral("remote: ") + host), qPrintable(window.windowTitle()));
        // Nothing is written or launched here: the project is the server's.
        QVERIFY(!window.roundPanel()->launchAction()->isEnabled());
        QVERIFY(!window.findChild<QAction *>(QStringLiteral("actionImport"))->isEnabled());

        // Open Recent lists the server, and no token is kept in the settings.
        QCOMPARE(RemoteWorkbench::recentServers().value(0), served.url());
        QSettings().sync();
        for (const QFileInfo &f : QDir(m_dir.path()).entryInfoList(QDir::Files)) {
            QFile file(f.filePath());
            QVERIFY(file.open(QIODevice::ReadOnly));
            if (f.fileName().endsWith(QLatin1String(".token")))
                continue;
            QVERIFY2(!file.readAll().contains(m_tokens.read), qPrintable(f.fileName()));
        }
        QMenu *recent = window.menuBar()->findChild<QMenu *>(QStringLiteral("menuRecent"));
        QVERIFY(recent);
        QMetaObject::invokeMethod(recent, "aboutToShow");
        bool listed = false;
        for (QAction *a : recent->actions())
            listed = listed || a->property("remoteServer").toString() == served.url();
        QVERIFY(listed);

        // An artifact by its hash: fetched once, then from the session's cache.
        const auto reader = ProjectReader::open(project);
        QVERIFY(reader.ok());
        const IterationId first = mine.first().iteration;
        const StoreResult<QList<ArtifactRef>> refs = (*reader.value)->cellArtifacts(first, mine.first().tree->cells().first().id);
        QVERIFY(refs.ok());
        if (!refs.value->isEmpty()) {
            const QString hash = refs.value->first().hash;
            QByteArray got;
            for (int round = 0; round < 2; ++round) {
                bool answered = false;
                remote->session()->artifact(hash, [&](Result<QByteArray> bytes) {
                    QVERIFY(bytes.ok());
                    got = *bytes.value;
                    answered = true;
                });
                QTRY_VERIFY_WITH_TIMEOUT(answered, 10000);
            }
            QCOMPARE(got, *(*reader.value)->readArtifact(hash).value);
            QCOMPARE(remote->session()->artifactFetches(), 1);
        }

        // Opening a cell (its row in Cells) shows its program, and the
        // inspector's Files page lists the files the cell refers to, fetched
        // from the server; the program file, chosen, shows the program's text.
        window.setCurrentWorld(0);
        const auto shown = window.currentTree();
        QVERIFY(shown);
        int openedCell = -1;
        QList<ArtifactRef> openedRefs;
        for (int i = 0; i < shown->cellCount() && openedCell < 0; ++i) {
            const StoreResult<QList<ArtifactRef>> r = (*reader.value)->cellArtifacts(first, shown->cells().at(i).id);
            QVERIFY(r.ok());
            const bool hasProgram = std::any_of(r.value->cbegin(), r.value->cend(), [](const ArtifactRef &a) { return a.name == QLatin1String("main.py"); });
            if (hasProgram && !shown->cells().at(i).payload.value(QLatin1String("program")).toString().isEmpty()) {
                openedCell = i;
                openedRefs = *r.value;
            }
        }
        QVERIFY(openedCell >= 0);
        const QString program = shown->cells().at(openedCell).payload.value(QLatin1String("program")).toString();
        window.cellView()->setCurrentIndex(window.cellProxyModel()->mapFromSource(window.cellModel()->index(openedCell, 0)));
        InspectorWidget *inspector = window.inspector();
        QCOMPARE(inspector->cellIndex(), openedCell);
        QCOMPARE(inspector->programText(), program);
        QVERIFY(inspector->pages()->isTabVisible(InspectorWidget::FilesPage));
        QTRY_COMPARE_WITH_TIMEOUT(inspector->filesList()->count(), int(openedRefs.size()), 20000);
        int programRow = -1;
        for (int k = 0; k < openedRefs.size(); ++k) {
            QVERIFY2(inspector->filesList()->item(k)->text().startsWith(openedRefs.at(k).name), qPrintable(inspector->filesList()->item(k)->text()));
            if (openedRefs.at(k).name == QLatin1String("main.py"))
                programRow = k;
        }
        inspector->filesList()->setCurrentRow(programRow);
        const QByteArray programFile = *(*reader.value)->readArtifact(openedRefs.at(programRow).hash).value;
        QTRY_COMPARE_WITH_TIMEOUT(inspector->fileText(), QString::fromUtf8(programFile), 20000);
        QCOMPARE(inspector->fileText().trimmed(), program.trimmed()); // the program shown is the one stored
        // Opened again, nothing is fetched again: the list and the files are the session's.
        const int fetches = remote->session()->artifactFetches();
        inspector->showCell(shown, openedCell);
        QCOMPARE(inspector->filesList()->count(), int(openedRefs.size())); // from the session's cache, at once
        inspector->filesList()->setCurrentRow(programRow);
        QCOMPARE(inspector->fileText(), QString::fromUtf8(programFile));
        QCOMPARE(remote->session()->artifactFetches(), fetches);
        // A project file's cell has no Files page (its files are on this machine).
        local.inspector()->showCell(theirs.first().tree, openedCell);
        QVERIFY(!local.inspector()->pages()->isTabVisible(InspectorWidget::FilesPage));

        // Opening a project file ends the connection.
        const QString other = m_dir.filePath(QStringLiteral("other.dreamrsi"));
        QVERIFY(QFile::copy(QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi"), other));
        QFile::setPermissions(other, QFile::permissions(other) | QFileDevice::WriteOwner);
        QSignalSpy opened(&window, &MainWindow::projectOpened);
        window.openProject(other);
        QVERIFY(opened.wait(30000));
        QVERIFY(!remote->isConnected());
        QVERIFY(!window.windowTitle().contains(QStringLiteral("remote:")));
    }

    void progressAndCompareReadTheServedIterations()
    {
        const QString project = m_dir.filePath(QStringLiteral("served-progress.dreamrsi"));
        // The file opened here: its Progress curve, and Compare with the file as its source.
        MainWindow local;
        QVERIFY(openDemoCopy(local, project));
        local.progressPage()->refresh();
        const QList<ProgressCurve> fileCurves = local.progressPage()->curves();
        QVERIFY(!fileCurves.isEmpty()); // one per task
        QVERIFY(!fileCurves.first().marks.isEmpty());
        local.comparePage()->addSource(CompareSourceSpec{CompareSourceSpec::Kind::Project, project, std::nullopt, QString()});
        QTRY_VERIFY_WITH_TIMEOUT(!local.comparePage()->isReading(), 30000);
        const CompareResult fileCompare = local.comparePage()->result();
        QCOMPARE(fileCompare.curves.size(), 1);
        QVERIFY(!fileCompare.curves.first().points.isEmpty());

        auto served = serve(project, m_tokens.readArgs());
        QVERIFY2(served.port != 0, served.banner.constData());
        MainWindow window;
        window.show();
        auto *remote = window.findChild<RemoteWorkbench *>(QStringLiteral("remoteWorkbench"));
        QVERIFY(remote);
        QSignalSpy copyStarted(remote->session(), &RemoteProjectSession::copyStarted);
        QSignalSpy copyReady(remote->session(), &RemoteProjectSession::copyReady);
        QSignalSpy copyFailed(remote->session(), &RemoteProjectSession::copyFailed);
        QSignalSpy messages(window.statusBar(), &QStatusBar::messageChanged);
        ConnectDialog *dialog = openDialog(window);
        QVERIFY(dialog);
        connectThrough(dialog, served.url(), m_tokens.read);
        QVERIFY(copyReady.wait(60000));
        QVERIFY2(copyFailed.isEmpty(), copyFailed.isEmpty() ? "" : qPrintable(copyFailed.first().first().toString()));
        QVERIFY(!copyStarted.isEmpty());
        const QString copy = remote->session()->copyPath();
        QVERIFY(QFileInfo::exists(copy));
        // The status bar says the copy is being read, then that it is shown.
        QStringList said;
        for (const QList<QVariant> &m : std::as_const(messages))
            said.append(m.first().toString());
        QVERIFY2(said.contains(QStringLiteral("remote: 127.0.0.1:%1 — reading its iterations for Progress and Compare…").arg(served.port)),
                 qPrintable(said.join(QLatin1Char('\n'))));
        QVERIFY2(said.contains(QStringLiteral("remote: 127.0.0.1:%1 — Progress and Compare show its iterations").arg(served.port)),
                 qPrintable(said.join(QLatin1Char('\n'))));

        // The copy is a project file with the served iterations, cell for cell.
        {
            const auto fileReader = ProjectReader::open(project);
            const auto copyReader = ProjectReader::open(copy);
            QVERIFY(fileReader.ok() && copyReader.ok());
            const StoreResult<QList<IterationInfo>> fileIterations = (*fileReader.value)->iterations();
            const StoreResult<QList<IterationInfo>> copyIterations = (*copyReader.value)->iterations();
            QVERIFY(fileIterations.ok() && copyIterations.ok());
            QCOMPARE(copyIterations.value->size(), fileIterations.value->size());
            for (qsizetype i = 0; i < fileIterations.value->size(); ++i) {
                const auto a = (*fileReader.value)->loadIteration(fileIterations.value->at(i).id);
                const auto b = (*copyReader.value)->loadIteration(copyIterations.value->at(i).id);
                QVERIFY(a.ok() && b.ok());
                QCOMPARE(b.value->meta().task, a.value->meta().task);
                QVERIFY(b.value->cells() == a.value->cells()); // the project's prices stay on the server
            }
        }

        // Progress: the same curve as the file's, iteration for iteration.
        window.progressPage()->refresh();
        const QList<ProgressCurve> servedCurves = window.progressPage()->curves();
        QCOMPARE(servedCurves.size(), fileCurves.size());
        for (qsizetype i = 0; i < fileCurves.size(); ++i) {
            QCOMPARE(servedCurves.at(i).task, fileCurves.at(i).task);
            QCOMPARE(servedCurves.at(i).points, fileCurves.at(i).points);
            QCOMPARE(servedCurves.at(i).marks, fileCurves.at(i).marks);
            QCOMPARE(servedCurves.at(i).totalCalls, fileCurves.at(i).totalCalls);
            QCOMPARE(servedCurves.at(i).best, fileCurves.at(i).best);
        }

        // Compare takes the served project as a source: the same curve as the file's.
        ComparePage *compare = window.comparePage();
        QTRY_COMPARE_WITH_TIMEOUT(compare->sources().value(0).path, remote->session()->copyPath(), 30000);
        QCOMPARE(compare->sources().size(), 1);
        QCOMPARE(int(compare->sources().first().kind), int(CompareSourceSpec::Kind::Project));
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isReading(), 30000);
        QCOMPARE(compare->result().curves.size(), 1);
        const QList<ComparePoint> &mine = compare->result().curves.first().points;
        const QList<ComparePoint> &theirs = fileCompare.curves.first().points;
        QCOMPARE(mine.size(), theirs.size());
        for (qsizetype i = 0; i < mine.size(); ++i) {
            QCOMPARE(mine.at(i).x, theirs.at(i).x);
            QCOMPARE(mine.at(i).best, theirs.at(i).best);
        }
        QCOMPARE(compare->result().curves.first().best, fileCompare.curves.first().best);
        QVERIFY2(!compare->notesText().contains(QStringLiteral("Cannot read")), qPrintable(compare->notesText()));

        // Read again (what a served round's end does): a new copy, in place of the old as Compare's source.
        const qsizetype readyBefore = copyReady.size();
        remote->session()->reload();
        QTRY_VERIFY_WITH_TIMEOUT(copyReady.size() > readyBefore, 60000);
        const QString again = remote->session()->copyPath();
        QVERIFY(again != copy);
        QTRY_COMPARE_WITH_TIMEOUT(compare->sources().value(0).path, remote->session()->copyPath(), 30000);
        QCOMPARE(compare->sources().size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isReading(), 30000);
        QCOMPARE(compare->result().curves.first().points.size(), theirs.size());

        // Disconnected: the copies are gone.
        remote->disconnectFromServer();
        QVERIFY(remote->session()->copyPath().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(again) && !QFileInfo::exists(copy), 10000);
        served.stop();
    }

    void aWaitingLoopShowsInThePanel()
    {
        // `dreamrsi loop --await-approval` served while it waits: the remote
        // Live Round panel shows the approval bar with the proposal (the
        // stream's approval event), the answer goes through POST /approve,
        // and the bar goes once the wait ended.
        const QString project = m_dir.filePath(QStringLiteral("gate.dreamrsi"));
        // Each step says when it was reached: a run that stalls (once, under
        // a full ctest on two cores, this function ran past QtTest's 300 s)
        // shows in its log which wait it stalled in.
        QElapsedTimer clock;
        clock.start();
        const auto reached = [&clock](const char *step) { qInfo("%6lld ms: %s", qlonglong(clock.elapsed()), step); };
        ProjectMaker loop;
        const QString made = loop.startApprovalLoop(project);
        QVERIFY2(made.isEmpty(), qPrintable(made));
        reached("the loop made its project");
        auto served = serve(project, m_tokens.steeringArgs());
        QVERIFY2(served.port != 0, served.banner.constData());
        reached("served");

        MainWindow window;
        RemoteWorkbench *remote = showConnectedSteering(window, served.url(), m_tokens);
        QVERIFY(remote);
        reached("the window is connected");
        RoundPanel *panel = window.roundPanel();
        QTRY_VERIFY_WITH_TIMEOUT(panel->controller()->approvalWait().has_value() || loop.state() == QProcess::NotRunning, 150000);
        QVERIFY2(panel->controller()->approvalWait().has_value(), loop.readAllStandardError().constData());
        reached("the panel has the loop's approval wait");
        const QString name = panel->controller()->approvalWait()->name();
        QVERIFY(!name.isEmpty());
        QTRY_VERIFY(panel->approvalBar()->isVisible());
        QVERIFY(panel->approvalBar()->findChild<QLabel *>(QStringLiteral("approvalText"))->text().contains(name));
        QVERIFY(panel->controller()->answerApproval(name, QStringLiteral("tester"), QStringLiteral("from the window")));
        reached("answered");
        QTRY_VERIFY2_WITH_TIMEOUT(loop.state() == QProcess::NotRunning, loop.readAllStandardError().constData(), 100000);
        QCOMPARE(loop.exitCode(), 0);
        reached("the loop ended");
        QTRY_VERIFY_WITH_TIMEOUT(!panel->approvalBar()->isVisible(), 30000);
        const auto reader = ProjectReader::open(project);
        QVERIFY(reader.ok());
        const StoreResult<QList<Approval>> approvals = (*reader.value)->approvals();
        QVERIFY(approvals.ok() && !approvals.value->isEmpty());
        QCOMPARE(approvals.value->last().who, QStringLiteral("tester via serve"));
        reached("the approval is stored");
        remote->disconnectFromServer();
    }

    void liveRoundGrowsOnScreen()
    {
        const QString project = m_dir.filePath(QStringLiteral("live.dreamrsi"));
        ProjectMaker round;
        const QString made = round.startRound(project, 6, {QStringLiteral("--accept-steering")});
        QVERIFY2(made.isEmpty(), qPrintable(made));
        const QStringList tokens = m_tokens.steeringArgs();
        auto served = serve(project, tokens);
        QVERIFY2(served.port != 0, served.banner.constData());

        MainWindow window;
        RemoteWorkbench *remote = showConnectedSteering(window, served.url(), m_tokens);
        QVERIFY(remote);
        RemoteFollower *follower = remote->session()->follower();
        QVERIFY(follower);
        follower->setRetryDelays(200, 1000);
        RoundPanel *panel = window.roundPanel();
        QCOMPARE(panel->controller()->remoteFollower(), follower);

        // The tree grows in the Live Round panel while the round runs.
        QTRY_VERIFY_WITH_TIMEOUT(panel->controller()->iteration().id != 0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(panel->controller()->cellCount() >= 2, 60000);
        const qsizetype early = panel->controller()->cellCount();
        QVERIFY(panel->controller()->isRoundLive());
        QString whyNot;
        QVERIFY2(panel->controller()->canKill(&whyNot), qPrintable(whyNot)); // the steering token was given

        // The server restarted on the same port mid-round: the follower says it lost the connection and resumes.
        const quint16 port = served.port;
        QSignalSpy connection(follower, &RemoteFollower::connectionChanged);
        served.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!follower->isConnected(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(remote->statusLabel()->text().contains(QStringLiteral("lost")), 10000);
        served = serve(project, tokens, port);
        QVERIFY2(served.port == port, served.banner.constData());
        QTRY_VERIFY_WITH_TIMEOUT(follower->isConnected(), 20000);
        QCOMPARE(remote->statusLabel()->text(), QStringLiteral("remote: 127.0.0.1:%1").arg(port));

        QTRY_VERIFY_WITH_TIMEOUT(panel->controller()->cellCount() > early, 60000);
        if (const QString dir = qEnvironmentVariable("DREAMRSI_SCREENSHOT_DIR"); !dir.isEmpty()) {
            QTest::qWait(1500); // the drawn tree's redraw
            QVERIFY(window.grab().save(QDir(dir).filePath(QStringLiteral("28-remote.png"))));
        }

        // The round ends: every cell shown once, in stored order, and the iteration a world.
        QVERIFY(waitForExit(round, 180000));
        QCOMPARE(round.exitCode(), 0);
        const CliRun exported = runDreamrsi({QStringLiteral("export"), project, QStringLiteral("--iteration"), QStringLiteral("1")});
        QVERIFY2(exported.finished && exported.exitCode == 0, exported.err.constData());
        const QJsonArray cells = QJsonDocument::fromJson(exported.out).object().value(QStringLiteral("cells")).toArray();
        QTRY_COMPARE_WITH_TIMEOUT(panel->controller()->cellCount(), cells.size(), 20000);
        QCOMPARE(panel->model()->cellCount(), int(cells.size()));
        QTRY_COMPARE_WITH_TIMEOUT(window.workspace()->worlds().size(), 1, 30000);
        QCOMPARE(TreeJson::serialize(*window.workspace()->worlds().first().tree), exported.out);
        QVERIFY(!panel->controller()->isRoundLive());
        QVERIFY(panel->controller()->remoteFollower()); // still following: a loop's next round would show
        // The ended round is copied again for Progress and Compare: the copy holds every cell of it.
        auto copiedCells = [&]() -> qsizetype {
            const QString copy = window.comparePage()->sources().value(0).path;
            if (copy.isEmpty() || copy != remote->session()->copyPath())
                return -1;
            const auto reader = ProjectReader::open(copy);
            if (!reader.ok())
                return -1;
            const auto its = (*reader.value)->iterations();
            if (!its.ok() || its.value->size() != 1)
                return -1;
            const auto stored = (*reader.value)->cells(its.value->first().id);
            return stored.ok() ? stored.value->size() : -1;
        };
        QTRY_COMPARE_WITH_TIMEOUT(copiedCells(), cells.size(), 60000);
    }
};

QTEST_MAIN(TestGuiRemote)
#include "tst_gui_remote.moc"
