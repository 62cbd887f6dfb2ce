// The main window: opening files, the cell table (model tester, sorting,
// filtering), the project dock, the inspector and the actions.
#include "figures/exportdialog.h"
#include "models/workspace.h"
#include "models/celltablemodel.h"
#include "tree/inspectorwidget.h"
#include "tree/treeview.h"
#include "window/mainwindow.h"
#include "window/userguidedialog.h"
#include "window/apptheme.h"
#include "live/roundpanel.h"
#include "models/livetreemodel.h"
#include "tree/treerenderer.h"
#include "models/projecttreemodel.h"
#include "models/policytablemodel.h"
#include "policies/policiespage.h"
#include "replayview/replaypage.h"
#include "progress/comparepage.h"
#include "session/projectsession.h"
#include "store/projectreader.h"
#include "session/demoproject.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTabBar>
#include <QTextBrowser>
#include <QChart>
#include <QChartView>
#include <QPainter>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest>

using namespace dreamrsi;

namespace {
// QObject::isSignalConnected is protected; a using-declaration in a subclass
// gives a pointer to the very same member without any cast of the object.
struct ConnectionPeek : QAction
{
    using QObject::isSignalConnected;
};
bool isConnected(const QAction *a, const QMetaMethod &signal)
{
    bool (QObject::*fn)(const QMetaMethod &) const = &ConnectionPeek::isSignalConnected;
    return (a->*fn)(signal);
}
} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

    QString demo(const char *name) const
    {
        return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/") + QLatin1String(name);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("DreamRSI-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
        QSettings().clear();
    }

    void viewMenuNamesTheToolbar()
    {
        MainWindow w;
        auto *toolbar = w.findChild<QToolBar *>(QStringLiteral("mainToolBar"));
        QVERIFY(toolbar);
        // View ▸ lists it by its title: "Main" alone did not say it is the toolbar.
        QCOMPARE(toolbar->toggleViewAction()->text(), QStringLiteral("Main Toolbar"));
    }

    void opensFileAndTableWorks()
    {
        MainWindow w;
        QAbstractItemModelTester cellTester(w.cellModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(w.cellProxyModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester projectTester(w.projectModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy opened(&w, &MainWindow::treeOpened);
        const QString path = demo("circle-packing-iter1.json");
        w.openFiles({path});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
        QCOMPARE(opened.first().first().toString(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(w.openTreeCount(), 1);
        const auto tree = w.currentTree();
        QVERIFY(tree);
        QCOMPARE(w.cellModel()->rowCount(), tree->cellCount());
        QCOMPARE(w.treeView()->tree(), tree);
        QCOMPARE(w.projectModel()->rowCount(w.projectModel()->groupIndex(ProjectTreeModel::WorldsGroup)), 1);
        QVERIFY(w.recentFiles().contains(QFileInfo(path).absoluteFilePath()));

        // Sorting by score, descending, puts the best cell first.
        QSortFilterProxyModel *proxy = w.cellProxyModel();
        w.cellView()->sortByColumn(CellTableModel::Score, Qt::DescendingOrder);
        QCOMPARE(proxy->index(0, CellTableModel::Id).data().toString(), tree->cells().at(tree->bestCellIndex()).id);
        double previous = std::numeric_limits<double>::infinity();
        for (int r = 0; r < proxy->rowCount(); ++r) {
            const double s = proxy->index(r, CellTableModel::Score).data(CellTableModel::SortRole).toDouble();
            QVERIFY(s <= previous);
            previous = s;
        }
        // Branch sorts numerically (10 after 9).
        w.cellView()->sortByColumn(CellTableModel::Branch, Qt::AscendingOrder);
        int previousBranch = -1;
        for (int r = 0; r < proxy->rowCount(); ++r) {
            const int b = proxy->index(r, CellTableModel::Branch).data().toInt();
            QVERIFY(b >= previousBranch);
            previousBranch = b;
        }

        // Filtering on the outcome column keeps exactly the runtime failures.
        const int runtime = tree->failClassCounts().value(QStringLiteral("runtime"));
        QVERIFY(runtime > 0);
        w.filterColumn()->setCurrentIndex(w.filterColumn()->findData(int(CellTableModel::FailClass)));
        w.filterEdit()->setText(QStringLiteral("runtime"));
        QCOMPARE(proxy->rowCount(), runtime);
        for (int r = 0; r < proxy->rowCount(); ++r)
            QCOMPARE(proxy->index(r, CellTableModel::FailClass).data().toString(), QStringLiteral("runtime"));
        w.filterEdit()->setText(QStringLiteral("no-such-cell"));
        QCOMPARE(proxy->rowCount(), 0);
        w.filterEdit()->clear();
        QCOMPARE(proxy->rowCount(), tree->cellCount());

        // Selecting a row inspects that cell; clicking a cell in the tree does too.
        QSignalSpy inspected(&w, &MainWindow::cellInspected);
        w.cellView()->setCurrentIndex(proxy->index(3, 0));
        QCOMPARE(inspected.count(), 1);
        const int cell = w.cellProxyModel()->mapToSource(proxy->index(3, 0)).row();
        QCOMPARE(w.inspector()->cellIndex(), cell);
        w.resize(1200, 800);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.tabs()->setCurrentIndex(MainWindow::DiscoveryTab);
        TreeView *view = w.treeView();
        const int best = tree->bestCellIndex();
        view->fitToView();
        const QRectF r = view->renderer().layout().cellRect(best);
        const QPoint at = (r.center() * view->scale() + view->offset()).toPoint();
        QTest::mouseClick(view, Qt::LeftButton, {}, at);
        QCOMPARE(w.inspector()->cellIndex(), best);
        QCOMPARE(view->selectedCell(), best);
        QCOMPARE(w.cellProxyModel()->mapToSource(w.cellView()->currentIndex()).row(), best);
    }

    void rejectsBadFile()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "dreamrsi-tree/1", "cells": [{"id": "a", "branch": 0, "attempt": 1, "seq": 0}]})");
        f.close();
        MainWindow w;
        QSignalSpy failed(&w, &MainWindow::openFailed);
        QSignalSpy opened(&w, &MainWindow::treeOpened);
        w.openFiles({bad});
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QCOMPARE(opened.count(), 0);
        QCOMPARE(w.openTreeCount(), 0);
        QVERIFY(!failed.first().at(1).toString().isEmpty());
    }

    void closeWorldAndReopen()
    {
        MainWindow w;
        QSignalSpy opened(&w, &MainWindow::treeOpened);
        w.openFiles({demo("circle-packing-iter1.json"), demo("c3-iter1.json")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 2, 10000);
        QCOMPARE(w.openTreeCount(), 2);
        // Reopening the same file replaces it instead of adding a copy.
        w.openFiles({demo("c3-iter1.json")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 3, 10000);
        QCOMPARE(w.openTreeCount(), 2);
        QAction *close = w.findChild<QAction *>(QStringLiteral("actionClose"));
        QVERIFY(close && close->isEnabled());
        close->trigger();
        QCOMPARE(w.openTreeCount(), 1);
        QVERIFY(w.currentTree());
        close->trigger();
        QCOMPARE(w.openTreeCount(), 0);
        QVERIFY(!w.currentTree());
        QVERIFY(!close->isEnabled());
    }

    // Every enabled action is wired to something, before and after a file is open.
    void noEnabledActionDoesNothing()
    {
        MainWindow w;
        auto check = [&w] {
            const auto actions = w.findChildren<QAction *>();
            QVERIFY(actions.size() > 10);
            for (QAction *a : actions) {
                if (!a->isEnabled() || a->isSeparator() || a->menu() || a->text().isEmpty())
                    continue;
                const bool wired = isConnected(a, QMetaMethod::fromSignal(&QAction::triggered))
                                   || isConnected(a, QMetaMethod::fromSignal(&QAction::toggled));
                QVERIFY2(wired, qPrintable(QStringLiteral("action '%1' (%2) is enabled but does nothing")
                                               .arg(a->text(), a->objectName())));
            }
        };
        check();
        QAction *zoomIn = w.findChild<QAction *>(QStringLiteral("actionZoomIn"));
        QAction *exportAction = w.findChild<QAction *>(QStringLiteral("actionExport"));
        QVERIFY(!zoomIn->isEnabled());
        QVERIFY(!exportAction->isEnabled());
        QSignalSpy opened(&w, &MainWindow::treeOpened);
        w.openFiles({demo("circle-packing-iter2.json")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
        w.tabs()->setCurrentIndex(MainWindow::DiscoveryTab);
        QVERIFY(zoomIn->isEnabled());
        QVERIFY(exportAction->isEnabled());
        check();
        // The view actions do what they say.
        w.resize(1000, 700);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.findChild<QAction *>(QStringLiteral("actionFit"))->trigger();
        const double fitted = w.treeView()->scale();
        zoomIn->trigger();
        QVERIFY(w.treeView()->scale() > fitted);
        w.findChild<QAction *>(QStringLiteral("actionZoomOut"))->trigger();
        w.findChild<QAction *>(QStringLiteral("actionZoomOut"))->trigger();
        QVERIFY(w.treeView()->scale() < fitted);
        w.findChild<QAction *>(QStringLiteral("actionFit"))->trigger();
        QCOMPARE(w.treeView()->scale(), fitted);
        QAction *legend = w.findChild<QAction *>(QStringLiteral("actionLegend"));
        legend->trigger();
        QVERIFY(!w.treeView()->isLegendVisible());
        legend->trigger();
        QVERIFY(w.treeView()->isLegendVisible());
        w.findChild<QAction *>(QStringLiteral("actionTab2"))->trigger();
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::CellsTab));
        // Cells tab has no figure: export turns off.
        QVERIFY(!exportAction->isEnabled());
        QAction *dark = w.findChild<QAction *>(QStringLiteral("actionDark"));
        dark->trigger();
        QVERIFY(w.isDarkTheme());
        dark->trigger();
        QVERIFY(!w.isDarkTheme());
    }

    // Help is the last menu (the Round menu, added by the live-round panel,
    // comes before it), and Launch Round has a shortcut of its own.
    void menusEndWithHelpAndLaunchHasAShortcut()
    {
        MainWindow w;
        QStringList menus;
        for (QAction *a : w.menuBar()->actions()) {
            if (a->menu())
                menus.append(a->menu()->objectName());
        }
        QVERIFY2(menus.size() >= 6, qPrintable(menus.join(QLatin1Char(' '))));
        QCOMPARE(menus.last(), QStringLiteral("menuHelp"));
        QVERIFY2(menus.contains(QStringLiteral("menuRound")), qPrintable(menus.join(QLatin1Char(' '))));
        QAction *launch = w.findChild<QAction *>(QStringLiteral("actionLaunchRound"));
        QVERIFY(launch);
        QVERIFY(!launch->shortcut().isEmpty());
        QVERIFY(w.menuBar()->findChild<QMenu *>(QStringLiteral("menuRound"))->actions().contains(launch));
        for (QAction *a : w.findChildren<QAction *>()) {
            if (a == launch)
                continue;
            for (const QKeySequence &k : a->shortcuts())
                QVERIFY2(k != launch->shortcut(), qPrintable(QStringLiteral("'%1' (%2) has %3 too")
                                                               .arg(a->text(), a->objectName(), k.toString())));
        }
    }

    // One list of recent projects and files in the File menu, enabled as soon as
    // either has an entry; Help offers the user guide and the shortcuts.
    void fileMenuHasOneRecentListAndHelpHasTheGuide()
    {
        QSettings().clear();
        QSettings().setValue(QStringLiteral("recentProjects"), QStringList{QStringLiteral("/tmp/a.dreamrsi")});
        MainWindow w;
        QMenu *file = nullptr;
        for (QAction *a : w.menuBar()->actions()) {
            if (a->menu() && a->text().remove(u'&') == QStringLiteral("File"))
                file = a->menu();
        }
        QVERIFY(file);
        QStringList recentMenus;
        for (QAction *a : file->actions()) {
            if (a->menu() && a->text().contains(QStringLiteral("Recent")))
                recentMenus.append(a->text());
        }
        QCOMPARE(recentMenus.size(), 1);
        auto *recent = file->findChild<QMenu *>(QStringLiteral("menuRecent"));
        QVERIFY(recent);
        QVERIFY(recent->isEnabled()); // a project alone enables it
        QStringList entries;
        for (QAction *a : recent->actions()) {
            if (!a->isSeparator())
                entries.append(a->text().remove(u'&'));
        }
        QVERIFY2(entries.contains(QStringLiteral("1 a.dreamrsi")), qPrintable(entries.join(QLatin1Char('|'))));
        QSignalSpy opened(&w, &MainWindow::treeOpened);
        w.openFiles({demo("c3-iter1.json")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
        entries.clear();
        for (QAction *a : recent->actions()) {
            if (!a->isSeparator())
                entries.append(a->text().remove(u'&'));
        }
        QVERIFY2(entries.contains(QStringLiteral("2 c3-iter1.json")), qPrintable(entries.join(QLatin1Char('|'))));
        QSettings().clear();

        // Help: the guide (README with docs/, found in the source tree here) and the shortcuts.
        QVERIFY(w.findChild<QAction *>(QStringLiteral("actionUserGuide")));
        const QString guide = UserGuideDialog::installedReadme();
        QVERIFY2(guide.endsWith(QStringLiteral("/README.md")), qPrintable(guide));
        QVERIFY(QFileInfo(QFileInfo(guide).absolutePath() + QStringLiteral("/docs/steering.md")).isFile());
        QVERIFY(w.findChild<QAction *>(QStringLiteral("actionShortcuts")));
        std::unique_ptr<QDialog> keys(w.shortcutsDialog());
        auto *table = keys->findChild<QTableWidget *>(QStringLiteral("shortcutsTable"));
        QVERIFY(table);
        const QString launch = w.findChild<QAction *>(QStringLiteral("actionLaunchRound"))->shortcut().toString(QKeySequence::NativeText);
        bool listed = false;
        for (int r = 0; r < table->rowCount(); ++r)
            listed = listed || (table->item(r, 2)->text() == launch && table->item(r, 1)->text().startsWith(QStringLiteral("Launch Round")));
        QVERIFY2(listed, qPrintable(launch));
    }

    // Export proposes the open project's folder, or the subfolder of it used last.
    void exportGoesBesideTheProject()
    {
        QTemporaryDir project;
        ExportChoices last;
        last.dir = QDir::homePath();
        {
            ExportDialog dialog(QStringLiteral("Progress"), nullptr, project.path(), last);
            QCOMPARE(QFileInfo(dialog.path()).absolutePath(), QDir(project.path()).absolutePath());
            QVERIFY2(dialog.path().endsWith(QStringLiteral("/progress.pdf")), qPrintable(dialog.path()));
        }
        const QString figures = project.filePath(QStringLiteral("figures"));
        last.dir = figures;
        {
            ExportDialog dialog(QStringLiteral("Progress"), nullptr, project.path(), last);
            QCOMPARE(QFileInfo(dialog.path()).absolutePath(), figures);
        }
        {
            ExportDialog dialog(QStringLiteral("Progress"), nullptr, QString(), last); // no project: the last folder used
            QCOMPARE(QFileInfo(dialog.path()).absolutePath(), figures);
            QCOMPARE(dialog.choices().dir.value_or(QString()), figures); // what the window keeps for the next export (UiState::exportForm)
        }
    }

    // Help ▸ User Guide shows the guide in the application, not in an outside
    // viewer: the installed README when there is one, else the copy compiled in;
    // a link to another page of the guide opens in place.
    void userGuideShownInside()
    {
        MainWindow w;
        w.findChild<QAction *>(QStringLiteral("actionUserGuide"))->trigger();
        auto *dialog = w.findChild<UserGuideDialog *>(QStringLiteral("userGuideDialog"));
        QVERIFY(dialog);
        QVERIFY(dialog->isVisible());
        QTextBrowser *browser = dialog->browser();
        QCOMPARE(browser->source(), UserGuideDialog::homePage());
        QVERIFY2(browser->toPlainText().startsWith(QStringLiteral("Dream-RSI Workbench")),
                 qPrintable(browser->toPlainText().left(80)));
        browser->setSource(QUrl(QStringLiteral("docs/steering.md")));
        QVERIFY2(browser->source().toString().endsWith(QStringLiteral("docs/steering.md")), qPrintable(browser->source().toString()));
        QVERIFY(browser->toPlainText().contains(QStringLiteral("Steering")));
        dialog->close();
        // Without the installed guide: the compiled-in copy, links between its pages too.
        QTextBrowser compiled;
        compiled.setSource(QUrl(QStringLiteral("qrc:/guide/README.md")), QTextDocument::MarkdownResource);
        QVERIFY(compiled.toPlainText().startsWith(QStringLiteral("Dream-RSI Workbench")));
        compiled.setSource(QUrl(QStringLiteral("docs/online.md")));
        QVERIFY(compiled.toPlainText().startsWith(QStringLiteral("Online rounds, agents, dreaming and the loop")));
    }

    // Dream… is off, with a tooltip saying why, without a project and on a
    // project with no finished iteration.
    void dreamNeedsWorlds()
    {
        MainWindow w;
        QAction *dream = w.findChild<QAction *>(QStringLiteral("actionDream"));
        QVERIFY(!dream->isEnabled());
        QVERIFY2(dream->toolTip().contains(QStringLiteral("needs a project")), qPrintable(dream->toolTip()));
        QTemporaryDir dir;
        QSignalSpy opened(&w, &MainWindow::projectOpened);
        w.newProject(dir.filePath(QStringLiteral("empty.dreamrsi")));
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
        QVERIFY(!dream->isEnabled());
        QVERIFY2(dream->toolTip().contains(QStringLiteral("no finished iteration")), qPrintable(dream->toolTip()));
    }

    // The demo's private copy is "Demo project" in Open Recent, not demo-<hash>;
    // New Project starts in the last project's folder or the documents, never
    // in the read-only folder of the run opened last.
    void recentDemoAndNewProjectFolder()
    {
        QSettings().clear();
        const QString data = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
        const QString demoCopy = data + QStringLiteral("/demo-a1014a5022c4.dreamrsi");
        QVERIFY(MainWindow::isDemoCopy(demoCopy));
        QVERIFY(!MainWindow::isDemoCopy(QStringLiteral("/tmp/demo-a1014a5022c4.dreamrsi")));
        QVERIFY(!MainWindow::isDemoCopy(data + QStringLiteral("/demo-notahash.dreamrsi")));
        QSettings().setValue(QStringLiteral("recentProjects"), QStringList{demoCopy, QStringLiteral("/tmp/a.dreamrsi")});
        {
            MainWindow w;
            auto *recent = w.findChild<QMenu *>(QStringLiteral("menuRecent"));
            QStringList entries;
            for (QAction *a : recent->actions()) {
                if (!a->isSeparator())
                    entries.append(a->text().remove(u'&'));
            }
            QVERIFY2(entries.contains(QStringLiteral("1 Demo project")), qPrintable(entries.join(QLatin1Char('|'))));
            QVERIFY2(entries.contains(QStringLiteral("2 a.dreamrsi")), qPrintable(entries.join(QLatin1Char('|'))));
        }
        QTemporaryDir readOnlyRun, projects;
        QFile::setPermissions(readOnlyRun.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        QSettings().setValue(QStringLiteral("lastDir"), readOnlyRun.path()); // an imported run's folder
        QVERIFY(MainWindow::newProjectFolder() != readOnlyRun.path());
        QSettings().setValue(QStringLiteral("lastProjectDir"), projects.path());
        QCOMPARE(MainWindow::newProjectFolder(), QFileInfo(projects.path()).absoluteFilePath());
        QSettings().setValue(QStringLiteral("lastProjectDir"), readOnlyRun.path());
        if (!QFileInfo(readOnlyRun.path()).isWritable()) // root writes everywhere
            QVERIFY(MainWindow::newProjectFolder() != readOnlyRun.path());
        QFile::setPermissions(readOnlyRun.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        QSettings().clear();
    }

    // File ▸ Reset Demo: off without the demo; on its private copy (made as
    // --demo makes it), a version and an approval the user added are gone
    // after the confirmed reset, the copy holds what the bundled demo holds
    // and the window shows it, the Policies table with a value per world.
    void resetDemoRestoresTheBundledDemo()
    {
        DemoProject demo;
        demo.file = QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi");
        demo.artifacts = QStringLiteral(DREAMRSI_SOURCE_DIR "/resources/demo/demo.dreamrsi-artifacts");
        const Result<QString> made = demo.install(DemoProject::Mode::Replace);
        QVERIFY2(made, qPrintable(made.error));
        const QString copy = *made.value;
        QCOMPARE(copy, demo.copyPath());
        QVERIFY(MainWindow::isDemoCopy(copy));
        QVERIFY(QFileInfo::exists(copy + QStringLiteral("-artifacts")));
        // What a project holds, as rows to compare: iterations, versions, approvals, stored results.
        auto contents = [](const QString &path) {
            QStringList rows;
            auto reader = ProjectReader::open(path);
            if (!reader.ok())
                return QStringList{reader.error};
            for (const IterationInfo &i : (*reader.value)->iterations().valueOr({}))
                rows.append(QStringLiteral("iteration %1: %2 cells, best %3").arg(i.id).arg(i.cellCount).arg(i.bestScore.value_or(-1.0)));
            for (const PolicyVersion &v : (*reader.value)->policyVersions().valueOr({}))
                rows.append(QStringLiteral("version %1 %2").arg(v.id).arg(v.name));
            rows.append(QStringLiteral("%1 approvals").arg((*reader.value)->approvals().valueOr({}).size()));
            rows.append(QStringLiteral("%1 results").arg((*reader.value)->replayResults().valueOr({}).size()));
            return rows;
        };
        const QStringList bundled = contents(copy);
        QVERIFY2(bundled.size() > 5, qPrintable(bundled.join(QLatin1Char('\n'))));

        MainWindow w;
        auto *reset = w.findChild<QAction *>(QStringLiteral("actionResetDemo"));
        QVERIFY(reset);
        QVERIFY(!reset->isEnabled());
        w.setDemo(demo);
        QVERIFY(!reset->isEnabled()); // no project open
        QSignalSpy loaded(&w, &MainWindow::projectLoaded);
        w.openProject(copy);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 20000);
        QVERIFY(reset->isEnabled());
        const qsizetype versions = w.workspace()->versions().size();

        // The user's changes, through the store: a version and its approval.
        PolicyVersion mine = w.workspace()->versions().first();
        mine.id = 0;
        mine.name = QStringLiteral("mine");
        mine.origin = PolicyOrigin::Human;
        mine.parent = w.workspace()->versions().first().id;
        QSignalSpy stored(w.session(), &ProjectSession::versionStored);
        w.session()->storeVersion(mine);
        QTRY_COMPARE_WITH_TIMEOUT(stored.count(), 1, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(w.workspace()->versions().size(), versions + 1, 10000);
        Approval approval;
        approval.version = w.workspace()->versions().last().id;
        approval.who = QStringLiteral("tester");
        QSignalSpy approved(&w, &MainWindow::approvalStored);
        w.session()->storeApproval(approval);
        QTRY_COMPARE_WITH_TIMEOUT(approved.count(), 1, 10000);
        QVERIFY(contents(copy) != bundled);

        // Cancel keeps the changes.
        reset->trigger();
        auto *ask = w.findChild<QMessageBox *>(QStringLiteral("resetDemoQuestion"));
        QVERIFY(ask);
        ask->button(QMessageBox::Cancel)->click();
        QTest::qWait(200);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(w.workspace()->versions().size(), versions + 1);
        QTRY_VERIFY(!w.findChild<QMessageBox *>(QStringLiteral("resetDemoQuestion")));

        // Reset, confirmed.
        reset->trigger();
        ask = w.findChild<QMessageBox *>(QStringLiteral("resetDemoQuestion"));
        QVERIFY(ask);
        QPushButton *confirm = nullptr;
        for (QAbstractButton *b : ask->buttons()) {
            if (ask->buttonRole(b) == QMessageBox::DestructiveRole)
                confirm = qobject_cast<QPushButton *>(b);
        }
        QVERIFY(confirm);
        confirm->click();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 20000);
        QCOMPARE(w.projectPath(), QFileInfo(copy).absoluteFilePath());
        QCOMPARE(contents(copy), bundled);
        QCOMPARE(w.workspace()->versions().size(), versions);
        QCOMPARE(w.workspace()->indexOfVersion(QStringLiteral("mine")), -1);
        QCOMPARE(w.workspace()->worlds().size(), qsizetype(bundled.filter(QStringLiteral("iteration ")).size()));
        QVERIFY(reset->isEnabled());

        // The Policies table: every version valued, and per world too (under
        // the demo's imagined valuation, the mean over a world's completions).
        PolicyTableModel *table = w.policiesPage()->model();
        QTRY_VERIFY_WITH_TIMEOUT(table->columnCount() > PolicyTableModel::FixedColumns, 10000);
        for (int row = 0; row < table->rowCount(); ++row) {
            const QString name = table->index(row, PolicyTableModel::Name).data().toString();
            QTRY_VERIFY2_WITH_TIMEOUT(table->index(row, PolicyTableModel::MeanValue).data().toString() != QStringLiteral("—"),
                                      qPrintable(name), 10000);
            for (int c = PolicyTableModel::FixedColumns; c < table->columnCount(); ++c) {
                const QString cell = table->index(row, c).data().toString();
                bool number = false;
                cell.toDouble(&number);
                QVERIFY2(number, qPrintable(QStringLiteral("%1, %2: %3")
                                                .arg(name, table->headerData(c, Qt::Horizontal).toString(), cell)));
            }
        }
    }

    // The default window fits the screen's free area (it was 1,656 px wide
    // on a 1,600 px screen: the Replay tab's controls on one line): it asks
    // for well under 1,600 px, and is sized within the screen.
    void defaultWindowFitsTheScreen()
    {
        QSettings().remove(QStringLiteral("mainWindow"));
        MainWindow w;
        QVERIFY2(w.minimumSizeHint().width() <= 1500,
                 qPrintable(QStringLiteral("the window needs %1 px").arg(w.minimumSizeHint().width())));
        QVERIFY(w.width() <= std::max(w.screen()->availableGeometry().width(), w.minimumSizeHint().width()));
    }

    // The dark theme reaches the live round's tree and charts, and toolbar
    // icons that are black (an icon theme's symbolic ones) are redrawn in the
    // palette's text colour instead of vanishing.
    void darkThemeReachesTheLiveTreeChartsAndIcons()
    {
        MainWindow w;
        QAction *dark = w.findChild<QAction *>(QStringLiteral("actionDark"));
        if (w.isDarkTheme())
            dark->trigger();
        QPixmap black(24, 24);
        black.fill(Qt::transparent);
        {
            QPainter p(&black);
            p.fillRect(QRect(4, 4, 16, 16), Qt::black);
        }
        QAction *probe = w.findChild<QAction *>(QStringLiteral("actionOpenProject"));
        probe->setIcon(QIcon(black));
        QVERIFY(AppTheme::isDarkIcon(probe->icon()));
        dark->trigger();
        QVERIFY(w.isDarkTheme());
        QCOMPARE(w.roundPanel()->treeView()->renderer().palette().background, TreePalette::dark().background);
        const QList<QChartView *> charts = w.findChildren<QChartView *>();
        QVERIFY(!charts.isEmpty());
        for (QChartView *v : charts)
            QVERIFY2(v->chart()->backgroundBrush().color().lightness() < 80, qPrintable(v->chart()->title()));
        QVERIFY(!AppTheme::isDarkIcon(probe->icon()));
        dark->trigger(); // light again: the icon's own look back
        QVERIFY(!w.isDarkTheme());
        QCOMPARE(w.roundPanel()->treeView()->renderer().palette().background, TreePalette::light().background);
        QVERIFY(AppTheme::isDarkIcon(probe->icon()));
        for (QChartView *v : charts)
            QVERIFY(v->chart()->backgroundBrush().color().lightness() > 200);
    }

    // The Live Round dock, shown at the default size (as a round starting
    // shows it), leaves the tabs most of the height: the Replay tab's two
    // trees stay readable, not thumbnails, and the window does not grow.
    void liveRoundDockLeavesTheTabsRoom()
    {
        QSettings().remove(QStringLiteral("mainWindow"));
        MainWindow w;
        w.resize(1400, 860);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.tabs()->setCurrentIndex(MainWindow::ReplayTab);
        auto *dock = w.findChild<QDockWidget *>(QStringLiteral("roundDock"));
        QVERIFY(dock && dock->isHidden());
        dock->toggleViewAction()->trigger();
        QTRY_VERIFY(dock->isVisible() && dock->height() > 0);
        TreeView *left = w.replayPage()->treeView(0);
        QTRY_VERIFY2(w.tabs()->height() >= w.height() / 2 && left->height() >= 220,
                     qPrintable(QStringLiteral("tabs %1 px, a replay tree %2 px, the dock %3 px")
                                    .arg(w.tabs()->height()).arg(left->height()).arg(dock->height())));
        QVERIFY2(dock->height() >= 200, qPrintable(QStringLiteral("the dock %1 px").arg(dock->height())));
        // The window keeps its size: the dock fits beside the tabs' own minimum.
        QVERIFY2(w.height() <= 860 && w.minimumSizeHint().height() <= 860,
                 qPrintable(QStringLiteral("the window %1 px, at least %2").arg(w.height()).arg(w.minimumSizeHint().height())));
    }

    // A tree file opened as a world clears the Live Round dock, as opening a
    // project does: the round it showed is not the world's.
    void openingATreeClearsTheLiveRoundDock()
    {
        MainWindow w;
        RoundPanel *panel = w.roundPanel();
        panel->model()->markRunning(QStringLiteral("b0a0"));
        QCOMPARE(panel->model()->attemptCount(), 1);
        QSignalSpy opened(&w, &MainWindow::treeOpened);
        w.openFiles({demo("circle-packing-iter1.json")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
        QCOMPARE(panel->model()->attemptCount(), 0);
        QCOMPARE(panel->model()->rowCount(), 0);
        QCOMPARE(panel->stateLabel()->text(), QStringLiteral("No round running"));
    }

    // At the default size, the inspector's seven tabs (Path the last) fit without scroll arrows.
    void inspectorTabsFitAtTheDefaultWidth()
    {
        QSettings().remove(QStringLiteral("mainWindow"));
        MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QTabBar *bar = w.inspector()->pages()->tabBar();
        int visible = 0; // Files, the eighth, is shown only for a served world's cell
        for (int i = 0; i < bar->count(); ++i)
            visible += bar->isTabVisible(i);
        QCOMPARE(visible, 7);
        QTRY_VERIFY2(bar->width() >= bar->sizeHint().width(),
                     qPrintable(QStringLiteral("%1 < %2").arg(bar->width()).arg(bar->sizeHint().width())));
    }

    void exportsTreeFigure()
    {
        QTemporaryDir dir;
        MainWindow w;
        QSignalSpy opened(&w, &MainWindow::treeOpened);
        w.openFiles({demo("c3-iter1.json")});
        QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
        w.tabs()->setCurrentIndex(MainWindow::DiscoveryTab);
        for (const char *suffix : {"png", "pdf", "svg"}) {
            const QString path = dir.filePath(QStringLiteral("tree.") + QLatin1String(suffix));
            const Result<Done> written = w.exportCurrentFigure(path);
            QVERIFY2(written, qPrintable(written.error));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
        // The numbers behind the tree figure: one row per cell, header first.
        const QString csvPath = dir.filePath(QStringLiteral("tree.csv"));
        const Result<Done> dataWritten = w.exportCurrentFigureData(csvPath);
        QVERIFY2(dataWritten, qPrintable(dataWritten.error));
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(csv.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.first().trimmed(), QStringLiteral("world,id,branch,attempt,seq,score,fail_class"));
        QCOMPARE(lines.size() - 1, qsizetype(w.currentTree()->cellCount()));
        w.tabs()->setCurrentIndex(MainWindow::CellsTab);
        const Result<Done> noFigure = w.exportCurrentFigure(dir.filePath(QStringLiteral("cells.png")));
        QVERIFY(!noFigure);
        QVERIFY(noFigure.error.contains(QStringLiteral("no figure")));
        QVERIFY(!w.exportCurrentFigureData(dir.filePath(QStringLiteral("cells.csv"))));
    }

    // Compare draws only once its sources are read: Export Figure, greyed
    // while the tab is empty, comes on when the figure is there (it stayed
    // greyed until another tab was visited).
    void exportFollowsTheCompareFigure()
    {
        MainWindow w;
        w.tabs()->setCurrentIndex(MainWindow::CompareTab);
        QAction *exportAction = w.findChild<QAction *>(QStringLiteral("actionExport"));
        QVERIFY(exportAction);
        QVERIFY(!exportAction->isEnabled());
        QSignalSpy refreshed(w.comparePage(), &ComparePage::refreshed);
        w.comparePage()->addPaths({demo("c3-iter1.json")});
        QTRY_VERIFY_WITH_TIMEOUT(refreshed.count() > 0 && !w.comparePage()->isReading(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(exportAction->isEnabled(), 5000);
        QCOMPARE(w.tabs()->currentIndex(), int(MainWindow::CompareTab));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
