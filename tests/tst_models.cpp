// The item models of views/models/ on their own: no widget library is linked
// (tests/models.cmake links dreamrsi::models only). Each model is built over
// real data, watched by QAbstractItemModelTester, and driven the way the
// workbench drives it (a tree growing in a live round, worlds and versions
// coming and going, results and approvals arriving).

#include "models/celltablemodel.h"
#include "models/livetreemodel.h"
#include "models/policytablemodel.h"
#include "models/projecttreemodel.h"
#include "models/treesummarytext.h"
#include "models/workspace.h"

#include "model/treejson.h"

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QColor>
#include <QFont>
#include <QJsonObject>
#include <QLocale>
#include <QSignalSpy>
#include "demotrees.h"

#include <QtTest>

#include <limits>

using namespace dreamrsi;

namespace {

using test::demoTree;

/// The first `n` cells of `tree` by seq: the tree as a live round had grown it.
std::shared_ptr<const DiscoveryTree> prefixOf(const DiscoveryTree &tree, int n, bool approximate = false)
{
    TreeMeta meta = tree.meta();
    meta.approximate = approximate;
    TreeError error;
    std::optional<DiscoveryTree> built = DiscoveryTree::build(meta, tree.cells().mid(0, n), &error);
    if (!built)
        qFatal("%s", qPrintable(error.message));
    return std::make_shared<const DiscoveryTree>(std::move(*built));
}

SweepResult sweep(const QString &world, double value, double hypervolume, double penalty)
{
    SweepResult s;
    s.world = world;
    s.scorable = true;
    s.value = value;
    s.hypervolume = hypervolume;
    s.penalty = penalty;
    return s;
}

PolicyVersion version(PolicyVersionId id, const QString &name, PolicyOrigin origin, PolicyVersionId parent = 0)
{
    PolicyVersion v;
    v.id = id;
    v.name = name;
    v.origin = origin;
    v.parent = parent;
    v.code = QStringLiteral("function choose(o) { return o.cells[0]; }");
    return v;
}

QColor foreground(const QModelIndex &index)
{
    const QVariant v = index.data(Qt::ForegroundRole);
    return v.typeId() == QMetaType::QBrush ? v.value<QBrush>().color() : v.value<QColor>();
}

} // namespace

class TestModels : public QObject
{
    Q_OBJECT
private slots:
    void treeSummaryText();
    void cellTableGrowsLikeALiveRound();
    void projectTreeFollowsTheWorkspace();
    void policyTableFollowsVersionsWorldsAndResults();
    void liveTreeFollowsARound();
};

void TestModels::treeSummaryText()
{
    const auto cp1 = demoTree("circle-packing-iter1.json");
    QCOMPARE(TreeSummaryText::of(*cp1),
             QStringLiteral("82 cells, 10 branches, max depth 11, best score 2.562049, fail classes: "
                            "agent=3 compile=1 correctness=1 env=3 ok=67 resource=2 runtime=2 timeout=3"));
    QVERIFY(TreeSummaryText::of(*prefixOf(*cp1, 3, true))
                .endsWith(QStringLiteral("\nAn approximate world: replays leave it out unless asked, and label results over it.")));
}

void TestModels::cellTableGrowsLikeALiveRound()
{
    CellTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.columnCount(), int(CellTableModel::ColumnCount));
    const QStringList headers = {QStringLiteral("Id"),      QStringLiteral("Branch"), QStringLiteral("Attempt"),
                                 QStringLiteral("Seq"),     QStringLiteral("Score"),  QStringLiteral("Mean ± 95 %"),
                                 QStringLiteral("Outcome"),
                                 QStringLiteral("Valid"),   QStringLiteral("Tests"),  QStringLiteral("Tags"),
                                 QStringLiteral("Error")};
    for (int c = 0; c < CellTableModel::ColumnCount; ++c)
        QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), headers.at(c));

    const auto full = demoTree("circle-packing-iter1.json");
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);

    // A round's first three cells arrive: inserted, not reset.
    model.growTo(prefixOf(*full, 3));
    QCOMPARE(reset.count(), 0);
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 0);
    QCOMPARE(inserted.at(0).at(2).toInt(), 2);
    QCOMPARE(model.rowCount(), 3);

    // b0a0: a scored cell.
    auto at = [&](int row, int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
    QCOMPARE(at(0, CellTableModel::Id).toString(), QStringLiteral("b0a0"));
    QCOMPARE(at(0, CellTableModel::Score).toString(), QStringLiteral("2.119072"));
    QCOMPARE(at(0, CellTableModel::Score, CellTableModel::SortRole).toDouble(), 2.119072);
    QCOMPARE(at(0, CellTableModel::FailClass).toString(), QStringLiteral("ok"));
    QVERIFY(!at(0, CellTableModel::FailClass, Qt::ForegroundRole).isValid());
    QCOMPARE(at(0, CellTableModel::Valid).toString(), QStringLiteral("yes"));
    QCOMPARE(at(0, CellTableModel::Valid, CellTableModel::SortRole).toInt(), 1);
    QCOMPARE(at(0, CellTableModel::Tests).toString(), QStringLiteral("5/5"));
    QCOMPARE(at(0, CellTableModel::Tags).toString(), QStringLiteral("direction:boundary-first layout, restart"));
    QCOMPARE(at(0, CellTableModel::Score, Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
    QVERIFY(!at(0, CellTableModel::Id, Qt::TextAlignmentRole).isValid());
    // b1a0: a runtime failure, without score or validity.
    QCOMPARE(at(1, CellTableModel::Id).toString(), QStringLiteral("b1a0"));
    QCOMPARE(at(1, CellTableModel::Branch).toInt(), 1);
    QCOMPARE(at(1, CellTableModel::Seq).toInt(), 1);
    QCOMPARE(at(1, CellTableModel::Score).toString(), QStringLiteral("—"));
    QCOMPARE(at(1, CellTableModel::Score, CellTableModel::SortRole).toDouble(), -std::numeric_limits<double>::infinity());
    QCOMPARE(at(1, CellTableModel::FailClass).toString(), QStringLiteral("runtime"));
    QCOMPARE(foreground(model.index(1, CellTableModel::FailClass)), QColor(0xc0, 0x39, 0x2b));
    QCOMPARE(at(1, CellTableModel::Valid).toString(), QStringLiteral("—"));
    QCOMPARE(at(1, CellTableModel::Valid, CellTableModel::SortRole).toInt(), -1);
    QCOMPARE(at(1, CellTableModel::Tests).toString(), QStringLiteral("0/5"));
    QCOMPARE(at(1, CellTableModel::Error).toString(), QStringLiteral("Traceback (most recent call last): ZeroDivisionError"));
    QCOMPARE(at(1, CellTableModel::Error, Qt::ToolTipRole).toString(), QStringLiteral("Traceback (most recent call last): ZeroDivisionError"));
    QCOMPARE(at(2, CellTableModel::Id, CellTableModel::CellIndexRole).toInt(), 2);

    // The whole tree: the rest inserted after them, the first rows told they may have changed.
    changed.clear();
    model.growTo(full);
    QCOMPARE(inserted.count(), 2);
    QCOMPARE(inserted.at(1).at(1).toInt(), 3);
    QCOMPARE(inserted.at(1).at(2).toInt(), 81);
    QCOMPARE(model.rowCount(), 82);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(0, 0));
    QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(2, CellTableModel::ColumnCount - 1));
    QCOMPARE(reset.count(), 0);
    QVERIFY(model.tree() == full);

    // Shrinking is not growing: a reset.
    model.growTo(prefixOf(*full, 10));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 10);
    // Another world: a reset.
    model.setTree(demoTree("c3-iter1.json"));
    QCOMPARE(reset.count(), 2);
    QCOMPARE(model.rowCount(), 67);
    QCOMPARE(at(0, CellTableModel::Id).toString(), QStringLiteral("b2a0"));
    QCOMPARE(at(0, CellTableModel::Score).toString(), QStringLiteral("0.545224"));
    model.setTree(nullptr);
    QCOMPARE(reset.count(), 3);
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::projectTreeFollowsTheWorkspace()
{
    Workspace ws;
    ProjectTreeModel model(&ws);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QModelIndex worlds = model.groupIndex(ProjectTreeModel::WorldsGroup);
    const QModelIndex versions = model.groupIndex(ProjectTreeModel::VersionsGroup);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.headerData(0, Qt::Horizontal).toString(), QStringLiteral("Project"));
    QCOMPARE(worlds.data().toString(), QStringLiteral("Worlds (0)"));
    QCOMPARE(versions.data().toString(), QStringLiteral("Policy versions (0)"));
    QCOMPARE(worlds.data(ProjectTreeModel::KindRole).toInt(), int(ProjectTreeModel::GroupItem));

    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    const auto cp1 = demoTree("circle-packing-iter1.json");
    ws.addWorld({QStringLiteral("cp1"), QStringLiteral("/demo/cp1.json"), 0, prefixOf(*cp1, 5)});
    ws.addWorld({QStringLiteral("circle_packing_26 iteration 2"), QString(), 2, demoTree("circle-packing-iter2.json")});
    ws.addWorld({QStringLiteral("imported"), QStringLiteral("/runs/imported.json"), 0, prefixOf(*demoTree("c3-iter1.json"), 4, true)});
    QCOMPARE(inserted.count(), 3);
    QCOMPARE(inserted.at(2).at(0).toModelIndex(), worlds);
    QCOMPARE(inserted.at(2).at(1).toInt(), 2);
    QCOMPARE(model.rowCount(worlds), 3);
    QCOMPARE(worlds.data().toString(), QStringLiteral("Worlds (3)"));
    const QModelIndex first = model.index(0, 0, worlds);
    QCOMPARE(first.data(ProjectTreeModel::KindRole).toInt(), int(ProjectTreeModel::WorldItem));
    QCOMPARE(first.data(ProjectTreeModel::RowRole).toInt(), 0);
    // The task follows the name unless the name already says it.
    QCOMPARE(first.data().toString(), QStringLiteral("cp1 — circle_packing_26"));
    QCOMPARE(model.index(1, 0, worlds).data().toString(), QStringLiteral("circle_packing_26 iteration 2"));
    QCOMPARE(model.index(2, 0, worlds).data().toString(), QStringLiteral("imported — c3_autocorrelation (approximate)"));
    QCOMPARE(first.data(Qt::ToolTipRole).toString(),
             QStringLiteral("cp1 — circle_packing_26\n/demo/cp1.json\n") + TreeSummaryText::of(*prefixOf(*cp1, 5)));
    QVERIFY(first.data(Qt::ToolTipRole).toString().contains(QStringLiteral("\n5 cells, 5 branches, max depth 1")));

    // A live round appends a cell to a world: its row changes, nothing is inserted.
    changed.clear();
    QVERIFY(ws.appendCell(0, cp1->cells().at(5)).ok());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex(), first);
    QCOMPARE(inserted.count(), 3);
    QVERIFY(first.data(Qt::ToolTipRole).toString().contains(QStringLiteral("\n6 cells, 6 branches")));

    // Versions, their results.
    PolicyVersion greedy = version(1, QStringLiteral("greedy"), PolicyOrigin::Builtin);
    PolicyVersion agent = version(2, QStringLiteral("v2"), PolicyOrigin::Agent, 1);
    agent.prompt = QStringLiteral("Prefer the branch with the best score.");
    ws.addVersion(greedy);
    ws.addVersion(agent);
    QCOMPARE(model.rowCount(versions), 2);
    QCOMPARE(versions.data().toString(), QStringLiteral("Policy versions (2)"));
    const QModelIndex v2 = model.index(1, 0, versions);
    QCOMPARE(v2.data(ProjectTreeModel::KindRole).toInt(), int(ProjectTreeModel::VersionItem));
    QCOMPARE(v2.data().toString(), QStringLiteral("v2"));
    QCOMPARE(v2.data(Qt::ToolTipRole).toString(), QStringLiteral("v2\nPrefer the branch with the best score."));

    auto whole = std::make_shared<ReplayResult>();
    whole->worlds = {sweep(QStringLiteral("cp1"), 0.25, 1.0, 0.0),
                     sweep(QStringLiteral("circle_packing_26 iteration 2"), 0.5, 1.0, 0.0),
                     sweep(QStringLiteral("imported"), 0.75, 1.0, 0.0)};
    whole->computeValue();
    QCOMPARE(*whole->value, 0.5);
    changed.clear();
    ws.setResult(QStringLiteral("v2"), whole);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(v2.data().toString(), QStringLiteral("v2 — value 0.5000"));
    auto partial = std::make_shared<ReplayResult>();
    partial->worlds = {sweep(QStringLiteral("cp1"), 0.25, 1.0, 0.0)};
    ws.setResult(QStringLiteral("greedy"), partial);
    QCOMPARE(model.index(0, 0, versions).data().toString(), QStringLiteral("greedy — 1 of 3 worlds"));

    // Removed and cleared. (The last world: the Workspace announces a removal
    // after the fact, so while rows are about to be removed the model cannot
    // show the rows below the removed one as they were.)
    ws.removeWorld(2);
    QCOMPARE(removed.count(), 1);
    QCOMPARE(removed.at(0).at(0).toModelIndex(), worlds);
    QCOMPARE(removed.at(0).at(1).toInt(), 2);
    QCOMPARE(worlds.data().toString(), QStringLiteral("Worlds (2)"));
    QCOMPARE(model.index(1, 0, worlds).data().toString(), QStringLiteral("circle_packing_26 iteration 2"));
    QCOMPARE(model.index(0, 0, versions).data().toString(), QStringLiteral("greedy — 1 of 2 worlds"));
    ws.clearWorlds();
    QCOMPARE(model.rowCount(worlds), 0);
    QCOMPARE(worlds.data().toString(), QStringLiteral("Worlds (0)"));
    QCOMPARE(model.index(0, 0, versions).data().toString(), QStringLiteral("greedy")); // no world left to miss
    ws.clearVersions();
    QCOMPARE(model.rowCount(versions), 0);
    QCOMPARE(versions.data().toString(), QStringLiteral("Policy versions (0)"));
    QCOMPARE(model.rowCount(), 2);
}

void TestModels::policyTableFollowsVersionsWorldsAndResults()
{
    Workspace ws;
    ws.addWorld({QStringLiteral("cp1"), QStringLiteral("/demo/cp1.json"), 0, demoTree("circle-packing-iter1.json")});
    ws.addWorld({QStringLiteral("c3"), QStringLiteral("/demo/c3.json"), 0, demoTree("c3-iter1.json")});
    ws.addVersion(version(1, QStringLiteral("builtin:greedy"), PolicyOrigin::Builtin));
    ws.addVersion(version(2, QStringLiteral("v2"), PolicyOrigin::Agent, 1));
    ws.addVersion(version(0, QStringLiteral("edited"), PolicyOrigin::Human, 2)); // a session-local id
    PolicyTableModel model(&ws);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(PolicyTableModel::FixedColumns) + 2 * int(PolicyTableModel::PerWorld));
    QCOMPARE(model.columnCount(), 11);
    const QStringList headers = {QStringLiteral("Version"),    QStringLiteral("Origin"),    QStringLiteral("Parent"),
                                 QStringLiteral("Approval"),   QStringLiteral("Value"),     QStringLiteral("cp1: value"),
                                 QStringLiteral("cp1: HV"),    QStringLiteral("cp1: penalty"), QStringLiteral("c3: value"),
                                 QStringLiteral("c3: HV"),     QStringLiteral("c3: penalty")};
    for (int c = 0; c < model.columnCount(); ++c)
        QCOMPARE(model.headerData(c, Qt::Horizontal).toString(), headers.at(c));
    QCOMPARE(model.headerData(PolicyTableModel::MeanValue, Qt::Horizontal, Qt::ToolTipRole).toString(),
             QStringLiteral("Mean value over the scorable worlds"));

    auto at = [&](int row, int column, int role = Qt::DisplayRole) { return model.index(row, column).data(role); };
    const int cp1Value = int(PolicyTableModel::FixedColumns) + int(PolicyTableModel::WorldValue);
    const int c3First = int(PolicyTableModel::FixedColumns) + int(PolicyTableModel::PerWorld);
    QCOMPARE(at(0, PolicyTableModel::Name).toString(), QStringLiteral("builtin:greedy"));
    QCOMPARE(at(2, PolicyTableModel::Name, PolicyTableModel::VersionNameRole).toString(), QStringLiteral("edited"));
    QCOMPARE(at(0, PolicyTableModel::Origin).toString(), QStringLiteral("built-in"));
    QCOMPARE(at(1, PolicyTableModel::Origin).toString(), QStringLiteral("agent"));
    QCOMPARE(at(2, PolicyTableModel::Origin).toString(), QStringLiteral("edited"));
    QCOMPARE(at(0, PolicyTableModel::Parent).toString(), QString());
    QCOMPARE(at(1, PolicyTableModel::Parent).toString(), QStringLiteral("builtin:greedy"));
    QCOMPARE(at(2, PolicyTableModel::Parent).toString(), QStringLiteral("v2"));
    // Not replayed yet: dashes, sorted last.
    QCOMPARE(at(1, PolicyTableModel::MeanValue).toString(), QStringLiteral("—"));
    QCOMPARE(at(1, PolicyTableModel::MeanValue, PolicyTableModel::SortRole).toDouble(), -std::numeric_limits<double>::infinity());
    QCOMPARE(at(1, cp1Value).toString(), QStringLiteral("—"));
    QVERIFY(!at(1, PolicyTableModel::Approved).isValid());

    // A whole result: row 1 changes, every number shown.
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    auto whole = std::make_shared<ReplayResult>();
    whole->worlds = {sweep(QStringLiteral("cp1"), 0.25, 0.5, 0.125), sweep(QStringLiteral("c3"), 0.75, 1.0, 0.0625)};
    whole->computeValue();
    ws.setResult(QStringLiteral("v2"), whole);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(1, 0));
    QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(1, 10));
    QCOMPARE(at(1, PolicyTableModel::MeanValue).toString(), QStringLiteral("0.5000"));
    QCOMPARE(at(1, PolicyTableModel::MeanValue, PolicyTableModel::SortRole).toDouble(), 0.5);
    QVERIFY(at(1, PolicyTableModel::MeanValue, Qt::FontRole).value<QFont>().bold());
    QCOMPARE(at(1, PolicyTableModel::MeanValue, Qt::TextAlignmentRole).toInt(), int(Qt::AlignRight | Qt::AlignVCenter));
    QCOMPARE(at(1, cp1Value).toString(), QStringLiteral("0.2500"));
    QCOMPARE(at(1, cp1Value + PolicyTableModel::WorldHypervolume).toString(), QStringLiteral("0.5000"));
    QCOMPARE(at(1, cp1Value + PolicyTableModel::WorldPenalty).toString(), QStringLiteral("0.1250"));
    QCOMPARE(at(1, c3First + PolicyTableModel::WorldPenalty).toString(), QStringLiteral("0.0625"));
    QCOMPARE(at(1, c3First + PolicyTableModel::WorldValue, PolicyTableModel::SortRole).toDouble(), 0.75);

    // Replayed on one world only: no mean, and the cell says why.
    auto partial = std::make_shared<ReplayResult>();
    partial->worlds = {sweep(QStringLiteral("cp1"), 0.25, 0.5, 0.125)};
    ws.setResult(QStringLiteral("builtin:greedy"), partial);
    QCOMPARE(at(0, PolicyTableModel::MeanValue).toString(), QStringLiteral("1 of 2 worlds"));
    QCOMPARE(at(0, PolicyTableModel::MeanValue, Qt::ForegroundRole).value<QColor>(), QColor(0x7f, 0x7f, 0x7f));
    QVERIFY(at(0, PolicyTableModel::MeanValue, Qt::ToolTipRole).toString().startsWith(QStringLiteral("Replayed on 1 of the 2 worlds")));
    QCOMPARE(at(0, cp1Value).toString(), QStringLiteral("0.2500"));
    QCOMPARE(at(0, c3First).toString(), QStringLiteral("—"));

    // A policy error on one world: shown in red with its message.
    auto broken = std::make_shared<ReplayResult>(*whole);
    broken->worlds[1].error = QStringLiteral("round 2: boom");
    broken->computeValue();
    ws.setResult(QStringLiteral("edited"), broken);
    QCOMPARE(at(2, PolicyTableModel::MeanValue).toString(), QStringLiteral("—"));
    QCOMPARE(at(2, PolicyTableModel::MeanValue, Qt::ToolTipRole).toString(), QStringLiteral("c3: round 2: boom"));
    QCOMPARE(at(2, c3First, Qt::ForegroundRole).value<QColor>(), QColor(0xd6, 0x27, 0x28));
    QCOMPARE(at(2, c3First, Qt::ToolTipRole).toString(), QStringLiteral("round 2: boom"));
    QCOMPARE(at(2, cp1Value).toString(), QStringLiteral("0.2500"));

    // Approvals: the newest one is deployed, in bold and green.
    changed.clear();
    Approval approval;
    approval.version = 2;
    approval.when = QDateTime::fromString(QStringLiteral("2025-03-01T09:30:00Z"), Qt::ISODate);
    approval.who = QStringLiteral("ada");
    approval.note = QStringLiteral("beats greedy");
    ws.addApproval(approval);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.at(0).at(0).toModelIndex(), model.index(0, PolicyTableModel::Approved));
    QCOMPARE(changed.at(0).at(1).toModelIndex(), model.index(2, PolicyTableModel::Approved));
    const QString when = QLocale().toString(approval.when.toLocalTime(), QLocale::ShortFormat);
    QCOMPARE(at(1, PolicyTableModel::Approved).toString(), QStringLiteral("deployed (%1)").arg(when));
    QVERIFY(at(1, PolicyTableModel::Approved, Qt::FontRole).value<QFont>().bold());
    QCOMPARE(at(1, PolicyTableModel::Approved, Qt::ForegroundRole).value<QColor>(), QColor(0x2c, 0xa0, 0x2c));
    QCOMPARE(at(1, PolicyTableModel::Approved, Qt::ToolTipRole).toString(),
             QStringLiteral("Approved by ada on %1: beats greedy").arg(when));
    QCOMPARE(at(1, PolicyTableModel::Approved, PolicyTableModel::SortRole).toString(), QStringLiteral("2025-03-01T09:30:00.000Z"));
    Approval later = approval;
    later.version = 1;
    later.when = approval.when.addDays(1);
    later.who.clear();
    later.note.clear();
    ws.addApproval(later);
    const QString laterWhen = QLocale().toString(later.when.toLocalTime(), QLocale::ShortFormat);
    QCOMPARE(at(0, PolicyTableModel::Approved).toString(), QStringLiteral("deployed (%1)").arg(laterWhen));
    QCOMPARE(at(1, PolicyTableModel::Approved).toString(), QStringLiteral("approved %1").arg(when));
    QVERIFY(!at(1, PolicyTableModel::Approved, Qt::FontRole).value<QFont>().bold());
    QCOMPARE(at(0, PolicyTableModel::Approved, Qt::ToolTipRole).toString(), QStringLiteral("Approved by (unnamed) on %1").arg(laterWhen));

    // A world opened: three columns inserted at the end; one closed: its three go.
    QSignalSpy columnsInserted(&model, &QAbstractItemModel::columnsInserted);
    QSignalSpy columnsRemoved(&model, &QAbstractItemModel::columnsRemoved);
    ws.addWorld({QStringLiteral("cp2"), QStringLiteral("/demo/cp2.json"), 0, demoTree("circle-packing-iter2.json")});
    QCOMPARE(columnsInserted.count(), 1);
    QCOMPARE(columnsInserted.at(0).at(1).toInt(), 11);
    QCOMPARE(columnsInserted.at(0).at(2).toInt(), 13);
    QCOMPARE(model.headerData(12, Qt::Horizontal).toString(), QStringLiteral("cp2: HV"));
    QCOMPARE(at(1, 11).toString(), QStringLiteral("—"));
    ws.removeWorld(0);
    QCOMPARE(columnsRemoved.count(), 1);
    QCOMPARE(columnsRemoved.at(0).at(1).toInt(), 5);
    QCOMPARE(columnsRemoved.at(0).at(2).toInt(), 7);
    QCOMPARE(model.columnCount(), 11);
    QCOMPARE(model.headerData(5, Qt::Horizontal).toString(), QStringLiteral("c3: value"));
    QCOMPARE(at(1, 5).toString(), QStringLiteral("0.7500"));

    // A version added: a row inserted.
    QSignalSpy rowsInserted(&model, &QAbstractItemModel::rowsInserted);
    ws.addVersion(version(3, QStringLiteral("v3"), PolicyOrigin::Agent, 2));
    QCOMPARE(rowsInserted.count(), 1);
    QCOMPARE(rowsInserted.at(0).at(1).toInt(), 3);
    QCOMPARE(at(3, PolicyTableModel::Parent).toString(), QStringLiteral("v2"));

    // Cleared: a reset each.
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    ws.clearWorlds();
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.columnCount(), int(PolicyTableModel::FixedColumns));
    QCOMPARE(model.rowCount(), 4);
    ws.clearVersions();
    QCOMPARE(reset.count(), 2);
    QCOMPARE(model.rowCount(), 0);
}

void TestModels::liveTreeFollowsARound()
{
    LiveTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), int(LiveTreeModel::ColumnCount));
    QCOMPARE(model.headerData(LiveTreeModel::IdColumn, Qt::Horizontal).toString(), QStringLiteral("Cell"));
    QCOMPARE(model.headerData(LiveTreeModel::StatusColumn, Qt::Horizontal).toString(), QStringLiteral("Status"));
    QCOMPARE(model.headerData(LiveTreeModel::ScoreColumn, Qt::Horizontal).toString(), QStringLiteral("Score"));
    QCOMPARE(model.headerData(LiveTreeModel::TimeColumn, Qt::Horizontal).toString(), QStringLiteral("Time"));

    // The stored cells of an iteration: b2a0 b3a0 b0a0 b6a0 b4a0 b1a0 b5a0 b7a0 b0a1 b3a1.
    const auto c3 = demoTree("c3-iter1.json");
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    model.reset(c3->cells().mid(0, 10));
    QCOMPARE(reset.count(), 1);
    QCOMPARE(model.rowCount(), 8);
    QCOMPARE(model.cellCount(), 10);
    QCOMPARE(model.attemptCount(), 10);
    QCOMPARE(model.runningCount(), 0);
    const QModelIndex branch0 = model.index(0, 0);
    QCOMPARE(branch0.data().toString(), QStringLiteral("Branch 0"));
    QCOMPARE(model.index(7, 0).data().toString(), QStringLiteral("Branch 7"));
    QCOMPARE(model.rowCount(branch0), 2);
    QCOMPARE(model.index(0, LiveTreeModel::ScoreColumn).data().toString(), QStringLiteral("0.617625"));
    QCOMPARE(model.index(0, LiveTreeModel::StatusColumn).data().toString(), QStringLiteral("2 attempt(s)"));
    QCOMPARE(model.index(1, 0, branch0).data().toString(), QStringLiteral("b0a1"));
    QCOMPARE(model.index(1, LiveTreeModel::StatusColumn, branch0).data().toString(), QStringLiteral("ok"));
    QCOMPARE(model.index(1, LiveTreeModel::ScoreColumn, branch0).data().toString(), QStringLiteral("0.617625"));
    QVERIFY(!model.index(1, 0, branch0).data(LiveTreeModel::RunningRole).toBool());
    QCOMPARE(model.branchOf(model.index(1, 0, branch0)), std::optional<int>(0));
    QCOMPARE(model.branchOf(model.index(3, 0)), std::optional<int>(3));
    QVERIFY(!model.branchOf(QModelIndex()));

    // The round goes on: an attempt starts on branch 2, one on a new branch 9.
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.markRunning(QStringLiteral("b2a1"));
    QCOMPARE(inserted.count(), 1);
    const QModelIndex branch2 = model.index(2, 0);
    QCOMPARE(inserted.at(0).at(0).toModelIndex(), branch2);
    QCOMPARE(inserted.at(0).at(1).toInt(), 1);
    QCOMPARE(model.rowCount(branch2), 2);
    const QModelIndex running = model.index(1, 0, branch2);
    QCOMPARE(running.data().toString(), QStringLiteral("b2a1"));
    QVERIFY(running.data(LiveTreeModel::RunningRole).toBool());
    QVERIFY2(model.index(1, LiveTreeModel::StatusColumn, branch2).data().toString().endsWith(QStringLiteral(" running")),
             qPrintable(model.index(1, LiveTreeModel::StatusColumn, branch2).data().toString()));
    QCOMPARE(foreground(model.index(1, LiveTreeModel::StatusColumn, branch2)), QColor(0x1f, 0x77, 0xb4));
    QVERIFY(!model.index(1, LiveTreeModel::ScoreColumn, branch2).data().isValid());
    model.markRunning(QStringLiteral("b9a0"));
    QCOMPARE(inserted.count(), 3); // the branch row, then its attempt
    QCOMPARE(inserted.at(1).at(0).toModelIndex(), QModelIndex());
    QCOMPARE(inserted.at(1).at(1).toInt(), 8);
    QCOMPARE(model.rowCount(), 9);
    QCOMPARE(model.index(8, 0).data().toString(), QStringLiteral("Branch 9"));
    QCOMPARE(model.runningCount(), 2);
    QCOMPARE(model.attemptCount(), 12);
    QCOMPARE(model.cellCount(), 10);
    const QList<RunningAttempt> attempts = model.runningAttempts(45.0);
    QCOMPARE(attempts.size(), 2);
    QCOMPARE(attempts.at(0).branch, 2);
    QCOMPARE(attempts.at(0).attempt, 1);
    QCOMPARE(attempts.at(1).branch, 9);
    QCOMPARE(attempts.at(1).limitS, std::optional<double>(45.0));
    QVERIFY(attempts.at(1).elapsedS >= 0.0);

    // The timer repaints the running rows' status and time, item by item.
    changed.clear();
    model.tick();
    QCOMPARE(changed.count(), 2 * (LiveTreeModel::TimeColumn - LiveTreeModel::StatusColumn + 1));

    // Branch 9's job waits in the queue.
    EvaluationProgress p;
    p.backend = QStringLiteral("slurm");
    p.jobId = QStringLiteral("77");
    p.state = QStringLiteral("PENDING");
    p.reason = QStringLiteral("Priority");
    p.submittedMs = QDateTime::currentMSecsSinceEpoch() - 3000;
    model.setProgress(QStringLiteral("b9a0"), p);
    const QModelIndex branch9 = model.index(8, 0);
    QCOMPARE(model.index(0, LiveTreeModel::StatusColumn, branch9).data().toString().section(QLatin1Char(' '), 1),
             QStringLiteral("pending (slurm job 77, Priority)"));
    QCOMPARE(model.index(0, LiveTreeModel::StatusColumn, branch9).data(Qt::ToolTipRole).toString(),
             QStringLiteral("slurm job 77: PENDING (reason: Priority)"));

    // b2a1 is stored: its row turns finished, the branch's best score follows.
    Cell stored;
    stored.id = QStringLiteral("b2a1");
    stored.branch = 2;
    stored.attempt = 1;
    stored.seq = 10;
    stored.score = 0.7;
    stored.evaluated = true;
    stored.valid = true;
    stored.failClass = QStringLiteral("ok");
    stored.payload.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("wall_s"), 7.0},
                                                                {QStringLiteral("queue_wait_s"), 4.0},
                                                                {QStringLiteral("run_s"), 2.5}});
    model.addCell(stored);
    QCOMPARE(inserted.count(), 3);
    QVERIFY(!running.data(LiveTreeModel::RunningRole).toBool());
    QCOMPARE(model.index(1, LiveTreeModel::StatusColumn, branch2).data().toString(), QStringLiteral("ok"));
    QCOMPARE(model.index(1, LiveTreeModel::ScoreColumn, branch2).data().toString(), QStringLiteral("0.7"));
    QCOMPARE(model.index(1, LiveTreeModel::TimeColumn, branch2).data().toString(), QStringLiteral("7.0 s · queued 4.0 s · ran 2.5 s"));
    QCOMPARE(model.index(2, LiveTreeModel::ScoreColumn).data().toString(), QStringLiteral("0.7"));
    QCOMPARE(model.index(2, LiveTreeModel::StatusColumn).data().toString(), QStringLiteral("2 attempt(s)"));
    QCOMPARE(model.cellCount(), 11);
    QCOMPARE(model.runningCount(), 1);

    // A cell a follower reads without having seen it start: inserted finished.
    Cell failed;
    failed.id = QStringLiteral("b4a1");
    failed.branch = 4;
    failed.attempt = 1;
    failed.seq = 11;
    failed.evaluated = true;
    failed.failClass = QStringLiteral("timeout");
    failed.error = QStringLiteral("killed after 60 s");
    failed.payload.insert(QStringLiteral("timing"), QJsonObject{{QStringLiteral("wall_s"), 60.0}});
    model.addCell(failed);
    QCOMPARE(inserted.count(), 4);
    const QModelIndex branch4 = model.index(4, 0);
    QCOMPARE(model.index(1, 0, branch4).data().toString(), QStringLiteral("b4a1"));
    QCOMPARE(model.index(1, LiveTreeModel::StatusColumn, branch4).data().toString(), QStringLiteral("timeout"));
    QCOMPARE(foreground(model.index(1, LiveTreeModel::StatusColumn, branch4)), QColor(0xd6, 0x27, 0x28));
    QCOMPARE(model.index(1, LiveTreeModel::StatusColumn, branch4).data(Qt::ToolTipRole).toString(), QStringLiteral("killed after 60 s"));
    QCOMPARE(model.index(1, LiveTreeModel::TimeColumn, branch4).data().toString(), QStringLiteral("60.0 s"));
    QCOMPARE(model.cellCount(), 12);

    // Branch 9's attempt is killed: its row goes, and the branch with it.
    model.removeRunning(QStringLiteral("b9a0"));
    QCOMPARE(removed.count(), 2);
    QCOMPARE(model.rowCount(), 8);
    QCOMPARE(model.runningCount(), 0);
    QCOMPARE(model.attemptCount(), 12);

    // Steering marks a branch.
    model.markSteered(3, QStringLiteral("close"));
    model.markSteered(3, QStringLiteral("hint"));
    model.markSteered(3, QStringLiteral("close")); // once only
    QCOMPARE(model.index(3, 0).data().toString(), QStringLiteral("Branch 3 \u2715 \u270E"));
    QCOMPARE(model.index(3, 0).data(Qt::ToolTipRole).toString(),
             QStringLiteral("\u2715 closed by hand: never refined again\n\u270E given a hint for its next attempt"));

    // A new iteration: a reset, the steering marks gone.
    model.reset(c3->cells().mid(0, 4));
    QCOMPARE(reset.count(), 2);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.cellCount(), 4);
    QCOMPARE(model.index(2, 0).data().toString(), QStringLiteral("Branch 3"));
    model.reset({});
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.cellCount(), 0);
}

QTEST_MAIN(TestModels)
#include "tst_models.moc"
