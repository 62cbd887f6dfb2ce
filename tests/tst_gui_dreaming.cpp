// The Dreaming view over a project: the built-in improver's versions arrive
// in the table and the workspace with their results, the proposal can be
// reviewed in the approval dialog, and Cancel stops a dream. Every candidate
// of the dream is listed (parent, changes, status) with the count of distinct
// behaviours, and the Policies tab shows a version's tunables against its parent's.
// When a dream ends the dialog says its answer and the noise check behind it
// (lead, noise, verdict; docs/online.md#a-proposal-must-beat-the-noise), the
// approval dialog repeats the check, and an approved proposal is not offered again.
#include "policies/dreamingdialog.h"
#include "models/workspace.h"

#include "policies/approvaldialog.h"
#include "policies/policiespage.h"
#include "session/replayjobs.h"
#include "session/sweeprunner.h"

#include "loop/dream/policytunables.h"
#include "project/projectworlds.h"
#include "replay/synthworld.h"
#include "replay/worldmodel.h"
#include "store/projectstore.h"
#include "store/projectwriter.h"

#include <QCheckBox>
#include <QDir>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTextCursor>
#include <QHeaderView>
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
        // Named as the project session names them (the names results are matched by).
        const QStringList names = ProjectWorlds::namesOf(*its.value);
        for (qsizetype k = 0; k < its.value->size(); ++k) {
            const IterationInfo &info = its.value->at(k);
            StoreResult<DiscoveryTree> tree = store.loadIteration(info.id).result();
            QVERIFY(tree.ok());
            workspace.addWorld({names.at(k), QString(), info.id,
                                std::make_shared<const DiscoveryTree>(std::move(*tree.value))});
        }
    }

    /// The candidate table and its summary line after a dream of the built-in improver.
    void checkCandidates(DreamingDialog &dialog, Workspace &workspace)
    {
        const DreamReport &report = dialog.report();
        const QList<CandidateRecord> &all = report.candidates;
        QVERIFY2(all.size() >= 2, qPrintable(QString::number(all.size())));
        QTableWidget *table = dialog.candidateTable();
        enum { Index, Parent, Kind, Changes, Why, Value, Status };

        // Every version's candidates, in the dream's order.
        dialog.allCandidatesBox()->setChecked(true);
        QCOMPARE(table->rowCount(), int(all.size()));
        int duplicates = 0, inert = 0, withChanges = 0, kept = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const CandidateRecord &c = all.at(row);
            QCOMPARE(c.index, row);
            QCOMPARE(table->item(row, Index)->text(), QString::number(row + 1));
            // Its parent is a version of the dream, in the workspace.
            QVERIFY(!c.parent.isEmpty());
            QCOMPARE(table->item(row, Parent)->text(), c.parent);
            QVERIFY2(workspace.indexOfVersion(c.parent) >= 0, qPrintable(c.parent));
            QVERIFY(QStringList({QStringLiteral("learned"), QStringLiteral("proposal"), QStringLiteral("random")})
                        .contains(table->item(row, Kind)->text()));
            QCOMPARE(table->item(row, Why)->text(), c.why);
            QCOMPARE(table->item(row, Value)->text(), c.value ? QString::number(*c.value, 'f', 4) : QStringLiteral("—"));
            // "NAME old → new" for each tunable it changed.
            for (const TunableChange &t : c.changes) {
                const QString change = QStringLiteral("%1 %2 → %3")
                                           .arg(t.name, PolicyTunables::literal(t.from, t.integer), PolicyTunables::literal(t.to, t.integer));
                QVERIFY2(table->item(row, Changes)->text().contains(change), qPrintable(table->item(row, Changes)->text()));
            }
            withChanges += c.changes.isEmpty() ? 0 : 1;
            const QString status = table->item(row, Status)->text();
            if (c.kept) {
                ++kept;
                QVERIFY2(status.startsWith(QLatin1String("kept")), qPrintable(status));
            } else if (c.duplicate) {
                QCOMPARE(status, c.duplicateOf >= 0 ? QStringLiteral("same behaviour as candidate %1").arg(c.duplicateOf + 1)
                                                    : QStringLiteral("same behaviour as a version"));
            } else if (c.inertAtDeployedBeta) {
                QCOMPARE(status, QStringLiteral("changes nothing at the deployed β"));
            } else if (!c.error.isEmpty()) {
                QCOMPARE(status, c.error);
            } else {
                QCOMPARE(status, QStringLiteral("not kept"));
            }
            duplicates += c.duplicate ? 1 : 0;
            inert += c.inertAtDeployedBeta ? 1 : 0;
        }
        QVERIFY2(withChanges > 0, "no candidate changed a tunable");
        // The summary counts what the report (and the dream JSON) counts.
        const int total = int(all.size());
        const int distinct = total - duplicates;
        // (Without the workbench's English translator the plurals read "candidate(s)".)
        const QString summary = dialog.candidateSummary()->text();
        const QRegularExpressionMatch counts =
            QRegularExpression(QStringLiteral("^All versions: (\\d+) candidate.*, (\\d+) distinct behaviour.* \\((\\d+) %\\)"))
                .match(summary);
        QVERIFY2(counts.hasMatch(), qPrintable(summary));
        QCOMPARE(counts.captured(1).toInt(), total);
        QCOMPARE(counts.captured(2).toInt(), distinct);
        QCOMPARE(counts.captured(3).toInt(), qRound(100.0 * distinct / total));
        QCOMPARE(summary.contains(QStringLiteral("changed nothing at the deployed β")), inert > 0);

        // One version's candidates: those it carries, its kept one named after it.
        dialog.allCandidatesBox()->setChecked(false);
        int keptShown = 0;
        for (int row = 0; row < dialog.table()->rowCount(); ++row) {
            const DreamVersion *version = nullptr;
            for (const DreamVersion &v : report.versions) {
                if (dialog.table()->item(row, 1)->text().startsWith(v.developed.version.name))
                    version = &v;
            }
            QVERIFY(version);
            dialog.table()->selectRow(row);
            const QString name = version->developed.version.name;
            QCOMPARE(table->rowCount(), int(version->candidates.size()));
            if (version->index == 0) {
                QVERIFY2(dialog.candidateSummary()->text().contains(QStringLiteral("deployed version")),
                         qPrintable(dialog.candidateSummary()->text()));
                continue;
            }
            QVERIFY2(dialog.candidateSummary()->text().startsWith(name + QStringLiteral(": ")),
                     qPrintable(dialog.candidateSummary()->text()));
            for (int c = 0; c < table->rowCount(); ++c) {
                QCOMPARE(table->item(c, Index)->text(), QString::number(version->candidates.at(c).index + 1));
                if (version->candidates.at(c).kept) {
                    QCOMPARE(table->item(c, Status)->text(), QStringLiteral("kept: %1").arg(name));
                    ++keptShown;
                }
            }
        }
        // Each written version kept exactly one of its candidates.
        QCOMPARE(keptShown, kept);
        int written = 0;
        for (const DreamVersion &v : report.versions)
            written += v.index > 0 && v.developed.error.isEmpty() ? 1 : 0;
        QCOMPARE(kept, written);

        // The Policies tab shows a kept proposal's or random step's changes as
        // the version's changed tunables against its parent (learned
        // candidates also rewrite tables, which are not tunables).
        SweepRunner runner(&workspace);
        PoliciesPage page(&workspace, &runner);
        int compared = 0;
        for (const DreamVersion &v : report.versions) {
            for (const CandidateRecord &c : v.candidates) {
                if (!c.kept || c.kind == QLatin1String("learned") || c.changes.isEmpty())
                    continue;
                page.selectVersion(v.developed.version.name);
                QCOMPARE(page.selectedVersion(), v.developed.version.name);
                QTableWidget *tunables = page.tunablesTable();
                QCOMPARE(tunables->horizontalHeaderItem(1)->text(), c.parent);
                QStringList changed;
                for (int row = 0; row < tunables->rowCount(); ++row) {
                    if (tunables->item(row, 0)->data(Qt::UserRole).toBool())
                        changed.append(tunables->item(row, 0)->text());
                }
                QStringList expected;
                for (const TunableChange &t : c.changes) {
                    expected.append(t.name);
                    for (int row = 0; row < tunables->rowCount(); ++row) {
                        if (tunables->item(row, 0)->text() != t.name)
                            continue;
                        QCOMPARE(tunables->item(row, 1)->text(), PolicyTunables::literal(t.from, t.integer));
                        QCOMPARE(tunables->item(row, 2)->text(), PolicyTunables::literal(t.to, t.integer));
                    }
                }
                changed.sort();
                expected.sort();
                QCOMPARE(changed, expected);
                ++compared;
            }
        }
        QVERIFY2(compared > 0, "no kept candidate with tunable changes to compare");
    }

    /// A dream by hand: the deployed v2 (mean value 0.5) and v6, which
    /// leads it by `lead` under the imagined valuation (C = 8, seed 7).
    static DreamReport handMadeReport(double lead)
    {
        DreamReport report;
        report.config.valuation = Valuation::Imagined;
        report.config.completions = 8;
        report.imagineSeed = 7;
        const auto version = [](int index, const QString &name, PolicyVersionId id, double value) {
            DreamVersion v;
            v.index = index;
            v.developed.version.id = id;
            v.developed.version.name = name;
            v.developed.version.code = QStringLiteral("-- %1").arg(name);
            v.developed.value = value;
            v.developer = index == 0 ? QStringLiteral("deployed") : QStringLiteral("builtin-improver");
            v.imaginedValue = value;
            return v;
        };
        report.versions = {version(0, QStringLiteral("v2"), 2, 0.5), version(1, QStringLiteral("v6"), 6, 0.5 + lead)};
        report.versions[0].revealedValue = 0.45;
        report.proposed = 1;
        return report;
    }

    static QString logOf(const DreamingDialog &dialog)
    {
        return dialog.findChild<QPlainTextEdit *>(QStringLiteral("dreamLog"))->toPlainText();
    }

private slots:
    // Before a dream starts, the bar counts the versions asked for.
    void progressCountsTheVersionsAskedFor()
    {
        Workspace workspace;
        DreamingDialog dialog(workspace, nullptr, nullptr); // the default preferences
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
        DreamingDialog dialog(workspace, &store, nullptr); // the default preferences
        dialog.show();
        QCOMPARE(dialog.agentBox()->currentData().toString(), QStringLiteral("builtin"));
        dialog.versionsBox()->setValue(3);
        // This dream's leader falls below the floor (floorRefusalIsShown);
        // here the noise check and the review are followed, without it.
        QVERIFY(dialog.floorBox()->isChecked());
        dialog.floorBox()->setChecked(false);
        QSignalSpy finished(&dialog, &DreamingDialog::dreamFinished);
        QSignalSpy otherLoaded(&dialog, &DreamingDialog::otherValuationLoaded);
        QVERIFY(dialog.start());
        QVERIFY(dialog.isRunning());
        QVERIFY(!dialog.startButton()->isEnabled());
        QVERIFY(dialog.cancelButton()->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        QVERIFY(!dialog.isRunning());
        QVERIFY2(dialog.report().proposal(),
                 qPrintable(dialog.findChild<QPlainTextEdit *>(QStringLiteral("dreamLog"))->toPlainText()));
        QCOMPARE(dialog.table()->rowCount(), 3);
        // Each version is in the workspace with a result over both worlds:
        // under the project's imagined valuation, over C = 8 completions of each.
        for (const DreamVersion &v : dialog.report().versions) {
            const ReplayResultPtr r = workspace.result(v.developed.version.name);
            QVERIFY2(r, qPrintable(v.developed.version.name));
            QCOMPARE(r->completions, 8);
            QCOMPARE(r->worlds.size(), 2 * 8);
            QVERIFY(r->sweepOf(Imagination::completionName(workspace.worlds().first().name, 7)));
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
        checkCandidates(dialog, workspace);

        // The approval dialog reads the other valuation's values back from the stored records.
        QTRY_COMPARE_WITH_TIMEOUT(otherLoaded.size(), 1, 30000);
        QVERIFY(workspace.otherValuationResult(proposal.developed.version.name));

        // The answer under the table: the proposal and the noise check that let it through.
        const DreamReport &report = dialog.report();
        QVERIFY(proposal.index > 0);
        QVERIFY(report.check.measured);
        QVERIFY(report.check.passed);
        QCOMPARE(report.check.candidate, proposal.developed.version.name);
        QCOMPARE(report.check.deployed, deployed.developed.version.name);
        QVERIFY(report.check.noise && report.check.secondLead);
        const QString answer = dialog.proposalCheckLabel()->text();
        QVERIFY(!dialog.proposalCheckLabel()->isHidden());
        // Every version the answer compares is in sight, the deployed one too (it scrolled out of a two-row table).
        QApplication::processEvents();
        for (int row = 0; row < dialog.table()->rowCount(); ++row) {
            const QRect r = dialog.table()->visualItemRect(dialog.table()->item(row, 1));
            QVERIFY2(r.top() >= 0 && r.bottom() <= dialog.table()->viewport()->height(),
                     qPrintable(QStringLiteral("row %1 at %2..%3 of %4 px").arg(row).arg(r.top()).arg(r.bottom())
                                    .arg(dialog.table()->viewport()->height())));
        }
        const QString leadText = QStringLiteral("%1 leads %2 by %3; noise %4 (how far %2 moved between two completion seeds); "
                                                "lead under the second seed +%5 → beats the noise, proposed")
                                     .arg(proposal.developed.version.name, deployed.developed.version.name,
                                          QString::number(report.check.lead, 'g', 3),
                                          QString::number(*report.check.noise, 'g', 3),
                                          QString::number(*report.check.secondLead, 'g', 3));
        QVERIFY2(answer.contains(QStringLiteral("<b>Proposal: %1.</b>").arg(proposal.developed.version.name)), qPrintable(answer));
        QVERIFY2(answer.contains(leadText), qPrintable(answer + QStringLiteral("\n") + leadText));
        const QString log = logOf(dialog);
        QVERIFY2(log.contains(QStringLiteral("Noise check: %1.").arg(leadText)), qPrintable(log));
        // The deployed version is never called proposed.
        QVERIFY2(!log.contains(QStringLiteral("proposed: %1 ").arg(deployed.developed.version.name), Qt::CaseInsensitive),
                 qPrintable(log));

        QVERIFY(dialog.reviewButton()->isEnabled());
        QCOMPARE(dialog.reviewButton()->text(), QStringLiteral("&Review Proposal…"));
        dialog.review();
        auto *approval = dialog.findChild<ApprovalDialog *>();
        QVERIFY(approval);
        // The approval dialog repeats the dream's check of the proposal.
        QVERIFY(!approval->proposalCheckLabel()->isHidden());
        QVERIFY2(approval->proposalCheckLabel()->text().contains(leadText.toHtmlEscaped()),
                 qPrintable(approval->proposalCheckLabel()->text()));
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
        QCOMPARE(requested.first().first().value<Approval>().version, proposal.developed.version.id);
        QVERIFY(requested.first().first().value<Approval>().version != 0);
        // Approved: Review Proposal… does not offer it again (issue 53).
        QVERIFY(!dialog.reviewButton()->isEnabled());
        QCOMPARE(dialog.reviewButton()->text(), QStringLiteral("%1 Approved").arg(proposal.developed.version.name));
        QTRY_VERIFY(!dialog.findChild<ApprovalDialog *>()); // deleted on close
        dialog.review();
        QVERIFY(!dialog.findChild<ApprovalDialog *>());
        QCOMPARE(requested.size(), 1);
        // Selecting the approved row keeps it so; a new dream offers its proposal again.
        for (int row = 0; row < dialog.table()->rowCount(); ++row) {
            if (dialog.table()->item(row, 1)->text().startsWith(proposal.developed.version.name))
                dialog.table()->selectRow(row);
        }
        QVERIFY(!dialog.reviewButton()->isEnabled());
        store.close().waitForFinished();
    }

    // A dream that finds nothing better than the deployed version says so:
    // Review Proposal does not offer the deployed version for approval.
    // The same dream with the floor check on: its leader does worse on its
    // hardest world than the project's first version and is not proposed;
    // the table, the answer and the log say so.
    void floorRefusalIsShown()
    {
        QTemporaryDir dir;
        ProjectStore store;
        Workspace workspace;
        openProject(dir.filePath(QStringLiteral("p.dreamrsi")), store, workspace);
        DreamingDialog dialog(workspace, &store, nullptr);
        dialog.show();
        dialog.versionsBox()->setValue(3);
        QSignalSpy finished(&dialog, &DreamingDialog::dreamFinished);
        QVERIFY(dialog.start());
        QVERIFY(!dialog.floorBox()->isEnabled()); // not while a dream runs
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        QVERIFY(dialog.floorBox()->isEnabled());
        const DreamReport &report = dialog.report();
        const FloorCheck &f = report.floor;
        QVERIFY(f.measured && f.floor);
        QVERIFY2(!f.refused.isEmpty(), qPrintable(f.verdict));
        QVERIFY(!f.passed);
        const QString text = DreamingDialog::floorCheckText(f);
        QVERIFY2(text.contains(QStringLiteral("below the floor %1").arg(QString::number(*f.floor, 'g', 3))), qPrintable(text));
        // Whatever was proposed instead keeps the floor.
        const DreamVersion *proposal = report.proposal();
        QVERIFY(proposal);
        QVERIFY(!f.refused.contains(proposal->developed.version.name));
        if (proposal->index > 0)
            QVERIFY(*FloorCheck::worstAttainment(*proposal->developed.result, f.beta) >= *f.floor);
        bool marked = false;
        for (int row = 0; row < dialog.table()->rowCount(); ++row) {
            const QString name = dialog.table()->item(row, 1)->text();
            if (name == QStringLiteral("%1 (below the floor; not proposed)").arg(f.refused.first()))
                marked = true;
        }
        QVERIFY(marked);
        const QString answer = dialog.proposalCheckLabel()->text();
        QVERIFY2(answer.contains(QStringLiteral("Floor check: ") + text.toHtmlEscaped()), qPrintable(answer));
        // A candidate led: the answer does not say none did.
        QVERIFY2(!answer.contains(QStringLiteral("No candidate led")), qPrintable(answer));
        QVERIFY2(logOf(dialog).contains(QStringLiteral("Floor check: %1.").arg(text)), qPrintable(logOf(dialog)));
        store.close().waitForFinished();
    }

    void nothingBetterIsSaid()
    {
        QTemporaryDir dir;
        ProjectStore store;
        Workspace workspace;
        openProject(dir.filePath(QStringLiteral("p.dreamrsi")), store, workspace);
        DreamingDialog dialog(workspace, &store, nullptr); // the default preferences
        dialog.show();
        dialog.versionsBox()->setValue(1); // the deployed version alone: nothing can beat it
        QSignalSpy finished(&dialog, &DreamingDialog::dreamFinished);
        QVERIFY(dialog.start());
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 300000);
        const DreamVersion *proposal = dialog.report().proposal();
        QVERIFY(proposal);
        QCOMPARE(proposal->index, 0);
        QVERIFY(!dialog.reviewButton()->isEnabled());
        QCOMPARE(dialog.reviewButton()->text(), QStringLiteral("Nothing Better Found"));
        QVERIFY2(dialog.reviewButton()->toolTip().contains(proposal->developed.version.name),
                 qPrintable(dialog.reviewButton()->toolTip()));
        const QString log = dialog.findChild<QPlainTextEdit *>(QStringLiteral("dreamLog"))->toPlainText();
        QVERIFY2(log.contains(QStringLiteral("Nothing better than the deployed version")), qPrintable(log));
        QVERIFY(!log.contains(QStringLiteral("Proposed:")));
        QVERIFY2(!log.contains(QStringLiteral("proposed: %1").arg(proposal->developed.version.name), Qt::CaseInsensitive),
                 qPrintable(log));
        // No candidate: no noise check, and the answer does not pretend one ran.
        QVERIFY(!dialog.report().check.measured);
        QCOMPARE(dialog.proposalCheckLabel()->text(),
                 QStringLiteral("<b>Nothing better than %1.</b> No candidate led the deployed version.")
                     .arg(proposal->developed.version.name));
        dialog.review();
        QVERIFY(!dialog.findChild<ApprovalDialog *>()); // no approval of the deployed version
        // Every column header whole ("evealed histor" was clipped).
        QHeaderView *header = dialog.table()->horizontalHeader();
        for (int c = 0; c < dialog.table()->columnCount(); ++c) {
            const QString title = dialog.table()->horizontalHeaderItem(c)->text();
            QVERIFY2(header->sectionSize(c) >= header->fontMetrics().horizontalAdvance(title),
                     qPrintable(QStringLiteral("%1: %2 px").arg(title).arg(header->sectionSize(c))));
        }
        // Selecting the deployed row does not offer it either.
        dialog.table()->selectRow(0);
        QVERIFY(!dialog.reviewButton()->isEnabled());
        store.close().waitForFinished();
    }

    // A candidate that led inside the noise is not proposed: the dialog
    // answers "Nothing better than v2", says the lead, the noise and the
    // verdict under the table and in the log, never calls v2 proposed, and
    // the approval dialog opened on the candidate anyway repeats the verdict.
    void aLeadInsideTheNoiseIsNotProposed()
    {
        Workspace workspace;
        DreamingDialog dialog(workspace, nullptr, nullptr); // the default preferences
        QSignalSpy finished(&dialog, &DreamingDialog::dreamFinished);
        DreamReport report = handMadeReport(0.0001);
        report.proposed = 0; // the check turned the lead down
        report.check.measured = true;
        report.check.candidate = QStringLiteral("v6");
        report.check.deployed = QStringLiteral("v2");
        report.check.lead = 0.0001;
        report.check.secondLead = -0.000234;
        report.check.noise = 0.00061234;
        report.check.secondSeed = 9876543210ULL;
        report.check.passed = false;
        report.check.verdict = QStringLiteral("inside the noise, not proposed");
        dialog.showReport(report);
        QCOMPARE(finished.size(), 1);
        QCOMPARE(dialog.report().proposal()->developed.version.name, QStringLiteral("v2"));

        const QString verdict = QStringLiteral("v6 leads v2 by 0.0001; noise 0.000612 (how far v2 moved between two "
                                               "completion seeds); lead under the second seed -0.000234 → inside the noise, "
                                               "not proposed");
        QLabel *answer = dialog.proposalCheckLabel();
        QVERIFY(!answer->isHidden());
        QCOMPARE(answer->text(), QStringLiteral("<b>Nothing better than v2.</b> %1.").arg(verdict));
        QVERIFY2(answer->toolTip().contains(QStringLiteral("9876543210")), qPrintable(answer->toolTip()));
        // The table marks the candidate that led; no row is "(proposed)".
        QCOMPARE(dialog.table()->rowCount(), 2);
        QCOMPARE(dialog.table()->item(0, 1)->text(), QStringLiteral("v2"));
        QCOMPARE(dialog.table()->item(1, 1)->text(), QStringLiteral("v6 (led; not proposed)"));
        QCOMPARE(dialog.table()->item(1, 1)->toolTip(), verdict);
        // Nothing to approve; the button's tooltip says why.
        QVERIFY(!dialog.reviewButton()->isEnabled());
        QCOMPARE(dialog.reviewButton()->text(), QStringLiteral("Nothing Better Found"));
        QVERIFY2(dialog.reviewButton()->toolTip().contains(verdict), qPrintable(dialog.reviewButton()->toolTip()));
        const QString log = logOf(dialog);
        QVERIFY2(log.contains(QStringLiteral("Nothing better than the deployed version v2 (mean value 0.5000, dream 1, seed 7, "
                                             "C = 8): no proposal to approve.\n    Noise check: %1.")
                                  .arg(verdict)),
                 qPrintable(log));
        QVERIFY2(!log.contains(QStringLiteral("proposed: v2"), Qt::CaseInsensitive), qPrintable(log));
        QVERIFY(!log.contains(QStringLiteral("Proposed:")));

        // Reviewing the candidate anyway: the approval dialog repeats the verdict.
        dialog.table()->selectRow(1);
        QVERIFY(dialog.reviewButton()->isEnabled());
        dialog.review();
        auto *approval = dialog.findChild<ApprovalDialog *>();
        QVERIFY(approval);
        QCOMPARE(approval->comparison().candidate, QStringLiteral("v6"));
        QVERIFY(!approval->proposalCheckLabel()->isHidden());
        QVERIFY2(approval->proposalCheckLabel()->text().contains(verdict.toHtmlEscaped()),
                 qPrintable(approval->proposalCheckLabel()->text()));
        approval->reject();
        QTRY_VERIFY(!dialog.findChild<ApprovalDialog *>());
        // Not about another version: a check of v6 is not shown for v2.
        ApprovalDialog other(workspace, QStringLiteral("v2"), nullptr);
        other.setProposalCheck(report.check);
        QVERIFY(other.proposalCheckLabel()->isHidden());
        QVERIFY(other.proposalCheckLabel()->text().isEmpty());
    }

    // Values of dreams with different seeds are not comparable: each seed
    // draws other imagined completions (docs/online.md#valuation). The log
    // heads each dream's lines with its number, seed and completions, labels
    // its values with them, and says so when a dream's seed differs from an
    // earlier one's in the log (two values of one version, 0.0004 apart, read
    // as a change before).
    void dreamLogSaysWhichDreamAValueIsOf()
    {
        QTemporaryDir dir;
        ProjectStore store;
        Workspace workspace;
        openProject(dir.filePath(QStringLiteral("p.dreamrsi")), store, workspace);
        DreamingDialog dialog(workspace, &store, nullptr); // the default preferences
        dialog.show();
        dialog.versionsBox()->setValue(1); // the deployed version alone: quick
        QSignalSpy finished(&dialog, &DreamingDialog::dreamFinished);
        QList<double> values;
        for (const int seed : {0, 3}) {
            dialog.seedBox()->setValue(seed);
            QVERIFY(dialog.start());
            QTRY_COMPARE_WITH_TIMEOUT(finished.size(), int(values.size()) + 1, 300000);
            QVERIFY(dialog.report().proposal() && dialog.report().proposal()->developed.value);
            QCOMPARE(dialog.report().imagineSeed, quint64(seed));
            values.append(*dialog.report().proposal()->developed.value);
        }
        const QString deployed = dialog.report().versions.first().developed.version.name;
        const QString log = logOf(dialog);
        const qsizetype first = log.indexOf(QStringLiteral("Dream 1 · seed 0 · imagined valuation over C = 8 completions"));
        const qsizetype second = log.indexOf(QStringLiteral("Dream 2 · seed 3 · imagined valuation over C = 8 completions"));
        QVERIFY2(first >= 0 && second > first, qPrintable(log));
        // Each dream's values under its own heading, labelled with its seed.
        const QString firstValue = QStringLiteral("Nothing better than the deployed version %1 (mean value %2, dream 1, seed 0, C = 8)")
                                       .arg(deployed, QString::number(values.at(0), 'f', 4));
        const QString secondValue = QStringLiteral("Nothing better than the deployed version %1 (mean value %2, dream 2, seed 3, C = 8)")
                                        .arg(deployed, QString::number(values.at(1), 'f', 4));
        QVERIFY2(log.indexOf(firstValue) > first && log.indexOf(firstValue) < second, qPrintable(log));
        QVERIFY2(log.indexOf(secondValue) > second, qPrintable(log));
        // The dreamer's own lines (its versions' values) indented under the heading of their dream.
        QVERIFY2(log.mid(first, second - first).contains(QStringLiteral("\n    version 0: ")), qPrintable(log));
        QVERIFY2(log.mid(second).contains(QStringLiteral("\n    version 0: ")), qPrintable(log));
        // The second dream says its values are not comparable with the first's.
        const qsizetype warning = log.indexOf(QStringLiteral("This dream's values are not comparable with those of dream 1 (seed 0) above"));
        QVERIFY2(warning > second, qPrintable(log));
        QCOMPARE(log.count(QStringLiteral("not comparable")), 1);
        if (!qEnvironmentVariableIsEmpty("DREAMRSI_SCREENSHOT_DIR"))
            dialog.grab().save(QDir(qEnvironmentVariable("DREAMRSI_SCREENSHOT_DIR")).filePath(QStringLiteral("dream-log.png")));
        store.close().waitForFinished();
    }

    // Dreams with one seed are comparable: no warning until a seed differs.
    void dreamLogWarnsOnlyWhenTheSeedDiffers()
    {
        Workspace other;
        DreamingDialog shown(other, nullptr, nullptr); // the default preferences
        shown.showReport(handMadeReport(0.0012)); // seed 7
        shown.showReport(handMadeReport(0.0012));
        QVERIFY2(logOf(shown).contains(QStringLiteral("Dream 2 · seed 7 · imagined valuation over C = 8 completions")),
                 qPrintable(logOf(shown)));
        QVERIFY2(!logOf(shown).contains(QStringLiteral("not comparable")), qPrintable(logOf(shown)));
        DreamReport reseeded = handMadeReport(0.0012);
        reseeded.imagineSeed = 11;
        shown.showReport(reseeded);
        QVERIFY2(logOf(shown).contains(QStringLiteral("Proposed: v6 (mean value 0.5012, dream 3, seed 11, C = 8)")),
                 qPrintable(logOf(shown)));
        QVERIFY2(logOf(shown).contains(QStringLiteral("not comparable with those of dream 1 (seed 7), dream 2 (seed 7) above")),
                 qPrintable(logOf(shown)));
    }

    // The other answers: a lead that beats the noise (proposed), a lead that
    // does not hold under the second seed, and a proposal under the revealed
    // valuation (no completions, so no check: said, not hidden).
    void theAnswerSaysWhyTheProposalStands()
    {
        Workspace workspace;
        DreamingDialog dialog(workspace, nullptr, nullptr); // the default preferences
        DreamReport beats = handMadeReport(0.0012);
        beats.check.measured = true;
        beats.check.candidate = QStringLiteral("v6");
        beats.check.deployed = QStringLiteral("v2");
        beats.check.lead = 0.0012;
        beats.check.secondLead = 0.0009;
        beats.check.noise = 0.0006;
        beats.check.passed = true;
        dialog.showReport(beats);
        QCOMPARE(dialog.proposalCheckLabel()->text(),
                 QStringLiteral("<b>Proposal: v6.</b> v6 leads v2 by 0.0012; noise 0.0006 (how far v2 moved between two "
                                "completion seeds); lead under the second seed +0.0009 → beats the noise, proposed."));
        QCOMPARE(dialog.table()->item(1, 1)->text(), QStringLiteral("v6 (proposed)"));
        QVERIFY2(logOf(dialog).contains(QStringLiteral("Proposed: v6 (mean value 0.5012, dream 1, seed 7, C = 8)")), qPrintable(logOf(dialog)));
        QVERIFY(dialog.reviewButton()->isEnabled());

        DreamReport flips = beats;
        flips.proposed = 0;
        flips.check.secondLead = -0.0003;
        flips.check.passed = false;
        dialog.showReport(flips);
        QCOMPARE(dialog.proposalCheckLabel()->text(),
                 QStringLiteral("<b>Nothing better than v2.</b> v6 leads v2 by 0.0012; noise 0.0006 (how far v2 moved "
                                "between two completion seeds); lead under the second seed -0.0003 → does not hold under the "
                                "second seed, not proposed."));
        QCOMPARE(dialog.table()->item(1, 1)->text(), QStringLiteral("v6 (led; not proposed)"));
        QVERIFY(!dialog.reviewButton()->isEnabled());

        DreamReport revealed = handMadeReport(0.003);
        revealed.config.valuation = Valuation::Revealed;
        dialog.showReport(revealed);
        QCOMPARE(dialog.proposalCheckLabel()->text(),
                 QStringLiteral("<b>Proposal: v6.</b> v6 leads v2 by 0.003 (the revealed history draws no completions: "
                                "no noise to check)."));
        QVERIFY(dialog.proposalCheckLabel()->toolTip().isEmpty());
        QVERIFY(dialog.reviewButton()->isEnabled());
    }

    // The Policies tab: a version derived from builtin:portfolio with one
    // tunable changed shows that row changed against its parent.
    void policiesPageShowsTunablesAgainstTheParent()
    {
        Workspace workspace;
        for (const PolicyVersion &v : ReplayJobs::builtinVersions())
            workspace.addVersion(v);
        const QString portfolio = QStringLiteral("builtin:portfolio");
        QVERIFY(workspace.indexOfVersion(portfolio) >= 0);
        SweepRunner runner(&workspace);
        PoliciesPage page(&workspace, &runner);
        page.selectVersion(portfolio);
        QCOMPARE(page.selectedVersion(), portfolio);
        QTableWidget *table = page.tunablesTable();
        const QString code = workspace.versions().at(workspace.indexOfVersion(portfolio)).code;
        const QList<PolicyTunable> tunables = PolicyTunables::parse(code);
        QVERIFY(tunables.size() >= 10);
        // No parent: every tunable listed, none changed.
        QCOMPARE(table->rowCount(), int(tunables.size()));
        for (int row = 0; row < table->rowCount(); ++row) {
            QCOMPARE(table->item(row, 0)->text(), tunables.at(row).name);
            QCOMPARE(table->item(row, 1)->text(), QStringLiteral("—"));
            QCOMPARE(table->item(row, 2)->text(), PolicyTunables::literal(tunables.at(row).value, tunables.at(row).integer));
            QVERIFY(!table->item(row, 0)->data(Qt::UserRole).toBool());
        }
        QVERIFY2(page.tunablesLabel()->text().contains(QStringLiteral("no parent")), qPrintable(page.tunablesLabel()->text()));

        // The frugal end by hand: PATIENCE_BASE 1 → 0, saved as a version derived from the portfolio.
        const PolicyTunable *patience = nullptr;
        for (const PolicyTunable &t : tunables) {
            if (t.name == QLatin1String("PATIENCE_BASE"))
                patience = &t;
        }
        QVERIFY(patience);
        QCOMPARE(patience->value, 1.0);
        // Edited in place, as a researcher types it (setPlainText would leave the document unmodified).
        QTextCursor cursor(page.editor()->document());
        cursor.setPosition(int(patience->literalStart));
        cursor.setPosition(int(patience->literalStart + patience->literalLength), QTextCursor::KeepAnchor);
        cursor.insertText(QStringLiteral("0"));
        QCOMPARE(page.editor()->toPlainText(), PolicyTunables::withValue(code, *patience, 0));
        // While edited: against the stored version.
        QVERIFY2(page.tunablesLabel()->text().contains(QStringLiteral("(edited) against the stored version: 1 changed")),
                 qPrintable(page.tunablesLabel()->text()));
        const QString name = page.saveAsNewVersion();
        QVERIFY(!name.isEmpty());
        QCOMPARE(page.selectedVersion(), name);
        QCOMPARE(workspace.versions().at(workspace.indexOfVersion(name)).parent,
                 workspace.versions().at(workspace.indexOfVersion(portfolio)).id);
        QCOMPARE(table->horizontalHeaderItem(1)->text(), portfolio);
        QCOMPARE(table->horizontalHeaderItem(2)->text(), name);
        QCOMPARE(table->rowCount(), int(tunables.size()));
        int changed = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            const bool isPatience = table->item(row, 0)->text() == QLatin1String("PATIENCE_BASE");
            QCOMPARE(table->item(row, 0)->data(Qt::UserRole).toBool(), isPatience);
            QCOMPARE(table->item(row, 2)->font().bold(), isPatience);
            QCOMPARE(table->item(row, 1)->background().style() != Qt::NoBrush, isPatience); // highlighted
            if (isPatience) {
                QCOMPARE(table->item(row, 1)->text(), QStringLiteral("1"));
                QCOMPARE(table->item(row, 2)->text(), QStringLiteral("0"));
                QCOMPARE(table->item(row, 3)->text(), QStringLiteral("[0, 6]"));
            }
            changed += isPatience ? 1 : 0;
        }
        QCOMPARE(changed, 1);
        QVERIFY2(page.tunablesLabel()->text().contains(QStringLiteral("against its parent builtin:portfolio: 1 changed")),
                 qPrintable(page.tunablesLabel()->text()));
    }

    void cancelStopsTheDream()
    {
        QTemporaryDir dir;
        ProjectStore store;
        Workspace workspace;
        openProject(dir.filePath(QStringLiteral("p.dreamrsi")), store, workspace);
        DreamingDialog dialog(workspace, &store, nullptr); // the default preferences
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
