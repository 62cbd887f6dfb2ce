// The Dreaming view over a project: the built-in improver's versions arrive
// in the table and the workspace with their results, the proposal can be
// reviewed in the approval dialog, and Cancel stops a dream.
#include "policies/dreamingdialog.h"
#include "models/workspace.h"

#include "policies/approvaldialog.h"
#include "replay/synthworld.h"
#include "replay/worldmodel.h"
#include "store/projectstore.h"
#include "store/projectwriter.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace dreamrsi;

class TestGuiDreaming : public QObject
{
    Q_OBJECT

private:
    /// A project with two synthetic worlds, opened in `store`, its worlds in `workspace`.
    void openProject(const QString &path, ProjectStore &store, Workspace &workspace)
    {
        QList<DiscoveryTree> trees;
        for (int i = 0; i < 2; ++i) {
            SynthParams p;
            p.seed = quint64(21 + i);
            p.width = 6;
            p.depth = 6;
            trees.append(SynthWorld::generate(p));
        }
        {
            StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::create(path, ProjectInfo{});
            QVERIFY2(writer.ok(), qPrintable(writer.error));
            QVERIFY((*writer.value)->importTrees(trees).ok());
            // Dreams replay under the project's configuration: a small one keeps the test quick.
            ReplayConfig config;
            config.workers = 4;
            config.betas = {0.0, 0.5, 1.0};
            QVERIFY((*writer.value)->setReplayConfig(config).ok());
        }
        QVERIFY(store.open(path).result().ok());
        // As an open project's session does: the configuration values are shown under.
        const StoreResult<StoredReplayConfig> stored = store.replayConfig().result();
        QVERIFY(stored.ok());
        workspace.setReplayConfig(*stored.value);
        const StoreResult<QList<IterationInfo>> its = store.iterations().result();
        QVERIFY(its.ok());
        for (const IterationInfo &info : *its.value) {
            StoreResult<DiscoveryTree> tree = store.loadIteration(info.id).result();
            QVERIFY(tree.ok());
            workspace.addWorld({QStringLiteral("world %1").arg(info.id), QString(), info.id,
                                std::make_shared<const DiscoveryTree>(std::move(*tree.value))});
        }
    }

private slots:
    // Before a dream starts, the bar counts the versions asked for.
    void progressCountsTheVersionsAskedFor()
    {
        Workspace workspace;
        DreamingDialog dialog(workspace, nullptr, AppSettings());
        auto *bar = dialog.findChild<QProgressBar *>(QStringLiteral("dreamProgress"));
        QVERIFY(bar);
        QCOMPARE(dialog.versionsBox()->value(), 4);
        QCOMPARE(bar->text(), QStringLiteral("0 of 4 versions"));
        dialog.versionsBox()->setValue(7);
        QCOMPARE(bar->text(), QStringLiteral("0 of 7 versions"));
    }

    void versionsArriveAndTheProposalCanBeReviewed()
    {
        QTemporaryDir dir;
        ProjectStore store;
        Workspace workspace;
        openProject(dir.filePath(QStringLiteral("p.dreamrsi")), store, workspace);
        AppSettings settings;
        DreamingDialog dialog(workspace, &store, settings);
        dialog.show();
        QCOMPARE(dialog.agentBox()->currentData().toString(), QStringLiteral("builtin"));
        dialog.versionsBox()->setValue(3);
        QSignalSpy finished(&dialog, &DreamingDialog::dreamFinished);
        QSignalSpy otherLoaded(&dialog, &DreamingDialog::otherValuationLoaded);
        QVERIFY(dialog.start());
        QVERIFY(dialog.isRunning());
        QVERIFY(!dialog.startButton()->isEnabled());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        QVERIFY(!dialog.isRunning());
        QCOMPARE(dialog.table()->rowCount(), 3);
        QVERIFY(dialog.report().proposal());
        // Each version is in the workspace with a result over both worlds:
        // under the project's imagined valuation, over C = 8 completions of each.
        for (const DreamVersion &v : dialog.report().versions) {
            const ReplayResultPtr r = workspace.result(v.developed.version.name);
            QVERIFY2(r, qPrintable(v.developed.version.name));
            QCOMPARE(r->completions, 8);
            QCOMPARE(r->worlds.size(), 2 * 8);
            QVERIFY(r->sweepOf(Imagination::completionName(QStringLiteral("world 1"), 7)));
        }
        // The valuation, and both numbers of the deployed version and the proposal.
        QCOMPARE(dialog.report().config.valuation, Valuation::Imagined);
        QVERIFY2(dialog.valuationLabel()->text().contains(QStringLiteral("imagined completions")),
                 qPrintable(dialog.valuationLabel()->text()));
        QVERIFY(dialog.valuationLabel()->text().contains(QStringLiteral("C = 8")));
        const DreamVersion &deployed = dialog.report().versions.first();
        const DreamVersion &proposal = *dialog.report().proposal();
        for (const DreamVersion *v : {&deployed, &proposal}) {
            QVERIFY2(v->revealedValue && v->imaginedValue, qPrintable(v->developed.version.name));
            QCOMPARE(*v->imaginedValue, *v->developed.value); // the valuation's number is the judged one
            bool shown = false;
            for (int row = 0; row < dialog.table()->rowCount(); ++row) {
                if (!dialog.table()->item(row, 1)->text().startsWith(v->developed.version.name))
                    continue;
                QCOMPARE(dialog.table()->item(row, 4)->text(), QString::number(*v->revealedValue, 'f', 4));
                QCOMPARE(dialog.table()->item(row, 5)->text(), QString::number(*v->imaginedValue, 'f', 4));
                shown = true;
            }
            QVERIFY(shown);
        }
        // The approval dialog reads the other valuation's values back from the stored records.
        QTRY_COMPARE_WITH_TIMEOUT(otherLoaded.size(), 1, 30000);
        QVERIFY(workspace.otherValuationResult(proposal.developed.version.name));

        QVERIFY(dialog.reviewButton()->isEnabled());
        dialog.review();
        auto *approval = dialog.findChild<ApprovalDialog *>();
        QVERIFY(approval);
        QVERIFY2(approval->comparison().blocker == ApprovalBlocker::None,
                 qPrintable(ApprovalDialog::blockerText(approval->comparison())));
        const ApprovalComparison &c = approval->comparison();
        QCOMPARE(c.candidate, proposal.developed.version.name);
        QVERIFY(c.otherConfig && c.otherConfig->valuation == Valuation::Revealed);
        QVERIFY(c.candidateValue && c.candidateOtherValue);
        // From stored records, the same numbers as the dream computed.
        QVERIFY(std::abs(*c.candidateValue - *proposal.imaginedValue) <= 1e-12);
        QVERIFY(std::abs(*c.candidateOtherValue - *proposal.revealedValue) <= 1e-12);
        auto *valuation = approval->findChild<QLabel *>(QStringLiteral("approvalValuation"));
        QVERIFY(valuation);
        QVERIFY2(valuation->text().contains(QString::number(*proposal.revealedValue, 'f', 4))
                     && valuation->text().contains(QString::number(*proposal.imaginedValue, 'f', 4)),
                 qPrintable(valuation->text()));
        const int last = approval->table()->rowCount() - 1;
        QCOMPARE(approval->table()->item(last, 0)->text(), QStringLiteral("Mean value (revealed history)"));
        QCOMPARE(approval->table()->item(last, 1)->text(), QString::number(*proposal.revealedValue, 'f', 4));
        QVERIFY(c.evidence.value(QStringLiteral("other_valuation")).isObject());
        QSignalSpy requested(&dialog, &DreamingDialog::approvalRequested);
        approval->whoEdit()->setText(QStringLiteral("tester"));
        approval->approveButton()->click();
        QCOMPARE(requested.size(), 1);
        QVERIFY(requested.first().first().value<Approval>().version != 0);
        store.close().waitForFinished();
    }

    void cancelStopsTheDream()
    {
        QTemporaryDir dir;
        ProjectStore store;
        Workspace workspace;
        openProject(dir.filePath(QStringLiteral("p.dreamrsi")), store, workspace);
        AppSettings settings;
        DreamingDialog dialog(workspace, &store, settings);
        dialog.versionsBox()->setValue(50);
        QSignalSpy finished(&dialog, &DreamingDialog::dreamFinished);
        QVERIFY(dialog.start());
        dialog.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        QVERIFY(dialog.report().cancelled);
        QVERIFY(dialog.report().versions.size() < 50);
        QVERIFY(dialog.startButton()->isEnabled());
        store.close().waitForFinished();
    }
};

QTEST_MAIN(TestGuiDreaming)
#include "tst_gui_dreaming.moc"
