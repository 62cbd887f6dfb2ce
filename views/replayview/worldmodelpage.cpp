#include "worldmodelpage.h"

#include "figures/figuredata.h"
#include "figures/figurelayout.h"
#include "figures/qcp.h"
#include "project/valuationworlds.h"
#include "session/imaginedworlds.h"
#include "session/jobtracker.h"
#include "session/preferences.h"
#include "models/workspace.h"

#include <QComboBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHash>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QListWidget>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace dreamrsi {

namespace {
const QString ModelPageScope = QStringLiteral("world model");
const QString DirectionPrefix = QStringLiteral("direction:");

/// A tree's task as the per-task models group it: none when it names none.
std::optional<QString> taskOf(const DiscoveryTree &tree)
{
    const std::optional<QString> &task = tree.meta().task;
    return task && !task->isEmpty() ? task : std::nullopt;
}

/// One model per task, as a dream fits them (ValuationWorlds::modelsOf), with
/// what the page shows of each: its evidence over every depth the grid allows
/// and the probes a deployment after its newest world would make. On a worker.
QList<WorldModelPage::TaskModel> fitTasks(const QList<ReplayWorld> &history)
{
    const WorldModels models = ValuationWorlds::modelsOf(history);
    QList<WorldModelPage::TaskModel> out;
    for (const WorldModels::Group &g : models.groups()) {
        if (g.worlds.isEmpty())
            continue;
        WorldModelPage::TaskModel t;
        t.task = g.task;
        t.worlds = int(g.worlds.size());
        t.model = g.model.toJson();
        // Every depth the grids of the task's worlds allow (10 without a grid), and any depth holding gains.
        for (const int j : g.worlds)
            t.maxAttempt = std::max(t.maxAttempt, history.at(j).tree->meta().grid.value_or(GridShape{10, 10}).refinements);
        for (const QJsonValue &sv : t.model.value(QLatin1String("strata")).toArray()) {
            for (const QJsonValue &gv : sv.toObject().value(QLatin1String("gains")).toArray())
                t.maxAttempt = std::max(t.maxAttempt, gv.toObject().value(QLatin1String("attempt")).toInt());
        }
        t.evidence = g.model.evidence(t.maxAttempt);

        const ReplayWorld &newest = history.at(g.worlds.last());
        t.newestWorld = newest.name;
        t.newestPlace = g.worlds.last();
        const QStringList &directions = g.model.options().directions;
        QHash<QString, int> roots; // root probes planned so far per tag (each fills its stratum by one)
        for (const ProbeCall &call : Probes::plan(*newest.tree, g.model, directions, ProbeSetting::AutoCalls)) {
            const QString tag = Imagination::branchTag(*newest.tree, call.branch, directions);
            WorldModelPage::PlannedProbe p;
            p.call = call;
            p.direction = tag.startsWith(DirectionPrefix) ? tag.mid(DirectionPrefix.size()) : tag;
            if (call.kind == ProbeCall::Kind::Depth)
                p.count = std::max(g.model.gainCount(WorldModel::pooled(), call.attempt),
                                   tag.isEmpty() ? 0 : g.model.gainCount(tag, call.attempt));
            else
                p.count = g.model.firstCount(tag) + roots[tag]++;
            t.probes.append(p);
        }
        out.append(std::move(t));
    }
    return out;
}

/// FigureData::worldModel's table in the order of the evidence — per stratum
/// its first attempts, then a gain row at every depth 1 … maxAttempt (count 0
/// where the model holds none) — then the failure rates and the cap, with a
/// `blind` column: true or false for first attempts and gains, empty otherwise.
FigureTable evidenceTable(const WorldModelPage::TaskModel &t)
{
    const FigureTable base = FigureData::worldModel(t.model);
    auto key = [](const QString &quantity, const QString &stratum, const QString &attempt) -> QString {
        return quantity + QLatin1Char('\n') + stratum + QLatin1Char('\n') + attempt;
    };
    const QString first = QStringLiteral("first_score"), gain = QStringLiteral("gain");
    QHash<QString, QStringList> values;
    for (const QStringList &row : base.rows) {
        if (row.at(0) == first || row.at(0) == gain)
            values.insert(key(row.at(0), row.at(1), row.at(2)), row);
    }
    FigureTable out;
    out.header = base.header + QStringList{QStringLiteral("blind")};
    const QString yes = QStringLiteral("true"), no = QStringLiteral("false");
    for (const WorldModel::Evidence &e : t.evidence) {
        const QString quantity = e.attempt < 0 ? first : gain;
        const QString attempt = QString::number(std::max(e.attempt, 0));
        QStringList row = values.take(key(quantity, e.stratum, attempt));
        if (row.isEmpty())
            row = QStringList{quantity,  e.stratum, attempt,   QString::number(e.count),
                              QString(), QString(), QString(), QString()};
        out.rows.append(row + QStringList{e.blind ? yes : no});
    }
    for (const QStringList &row : base.rows) {
        // The failure rates and the cap (and anything the evidence did not cover: it covers every stratum and depth).
        const bool stratumRow = row.at(0) == first || row.at(0) == gain;
        if (!stratumRow || values.contains(key(row.at(0), row.at(1), row.at(2))))
            out.rows.append(row + QStringList{QString()});
    }
    return out;
}

} // namespace

WorldModelPage::WorldModelPage(Workspace *workspace, JobTracker *jobs, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_jobs(jobs ? jobs : new JobTracker(this))
{
    m_task = new QComboBox;
    m_task->setObjectName(QStringLiteral("worldModelTask"));
    m_task->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_task->setToolTip(tr("Whose model the page shows: a dream fits one model per task, each over the history worlds "
                          "of that task only. Selecting a world in the Project panel shows the model of its task."));
    m_panel = new QComboBox;
    m_panel->setObjectName(QStringLiteral("worldModelPanel"));
    for (const WorldModelPlot::Panel p :
         {WorldModelPlot::Panel::FirstScores, WorldModelPlot::Panel::Gains, WorldModelPlot::Panel::Failures})
        m_panel->addItem(WorldModelPlot::title(p), int(p));
    m_panel->setToolTip(tr("Which part of the world model the figure shows (every number is in the table below)"));
    m_summary = new QLabel;
    m_summary->setObjectName(QStringLiteral("worldModelSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_plot = new QCustomPlot;
    m_plot->setObjectName(QStringLiteral("worldModelPlot"));
    m_plot->setMinimumSize(300, 220);
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("worldModelTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    // Compact rows: a task's strata × depths make a long table.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->setAlternatingRowColors(true);
    m_table->setSortingEnabled(false);
    m_probeHeading = new QLabel;
    m_probeHeading->setObjectName(QStringLiteral("worldModelProbeHeading"));
    m_probeHeading->setWordWrap(true);
    m_probeHeading->setTextFormat(Qt::PlainText);
    m_probes = new QListWidget;
    m_probes->setObjectName(QStringLiteral("worldModelProbes"));
    m_probes->setSelectionMode(QAbstractItemView::NoSelection);
    // As high as the most probes `auto` plans, no higher: the table keeps the room.
    m_probes->setMaximumHeight(m_probes->fontMetrics().lineSpacing() * (ProbeSetting::AutoCalls + 1)
                               + 2 * m_probes->frameWidth());
    m_probes->setToolTip(tr("After a deployment's episode, a few real calls go where the model is blind (docs/online.md, "
                            "\"Probes\"): one attempt deeper on the best branch while that depth is blind, else the first "
                            "attempt of an unopened branch whose direction is blind. Planned here on the newest world of "
                            "the task, without making them."));

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Task:")));
    top->addWidget(m_task);
    top->addSpacing(12);
    top->addWidget(new QLabel(tr("Figure:")));
    top->addWidget(m_panel);
    top->addStretch(1);
    auto *probeBox = new QWidget;
    auto *probeLayout = new QVBoxLayout(probeBox);
    probeLayout->setContentsMargins(0, 4, 0, 0);
    probeLayout->addWidget(m_probeHeading);
    probeLayout->addWidget(m_probes, 1);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_plot);
    splitter->addWidget(m_table);
    splitter->addWidget(probeBox);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 3);
    splitter->setStretchFactor(2, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_summary);
    layout->addWidget(splitter, 1);
    connect(m_panel, &QComboBox::currentIndexChanged, this, &WorldModelPage::redraw);
    connect(m_task, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0)
            showTask(m_task->itemData(index).toInt());
    });

    // Several changes at once (a project opening) fit the models once.
    m_pending = new QTimer(this);
    m_pending->setSingleShot(true);
    m_pending->setInterval(0);
    connect(m_pending, &QTimer::timeout, this, &WorldModelPage::refresh);
    connect(workspace, &Workspace::worldsChanged, this, &WorldModelPage::scheduleRefresh);
    connect(workspace, &Workspace::worldChanged, this, &WorldModelPage::scheduleRefresh);
    connect(workspace, &Workspace::worldsCleared, this, &WorldModelPage::scheduleRefresh);
    refresh();
}

QString WorldModelPage::taskLabel(const std::optional<QString> &task)
{
    if (!task)
        return tr("no task");
    // A task folder is named by its absolute path: its folder's name says which.
    const QFileInfo folder(*task);
    return folder.isAbsolute() && !folder.fileName().isEmpty() ? folder.fileName() : *task;
}

const WorldModelPage::TaskModel *WorldModelPage::shownTask() const
{
    return m_shown >= 0 && m_shown < m_tasks.size() ? &m_tasks.at(m_shown) : nullptr;
}

void WorldModelPage::scheduleRefresh()
{
    m_pending->start();
}

void WorldModelPage::setIncludeApproximate(bool include)
{
    if (include == m_includeApproximate)
        return;
    m_includeApproximate = include;
    scheduleRefresh();
}

void WorldModelPage::setPreferences(const Preferences *preferences)
{
    setIncludeApproximate(Preferences::of(preferences).includeApproximate);
    if (preferences)
        connect(preferences, &Preferences::includeApproximateChanged, this, &WorldModelPage::setIncludeApproximate);
}

void WorldModelPage::setCurrentWorld(int row)
{
    m_currentRow = row;
    const int index = taskOfRow(row);
    if (index >= 0 && index != m_shown)
        showTask(index);
}

int WorldModelPage::taskOfRow(int row) const
{
    const QList<WorldEntry> &worlds = m_workspace->worlds();
    if (row < 0 || row >= worlds.size() || !worlds.at(row).tree)
        return -1;
    const std::optional<QString> task = taskOf(*worlds.at(row).tree);
    for (int i = 0; i < m_tasks.size(); ++i) {
        if (m_tasks.at(i).task == task)
            return i;
    }
    return -1;
}

void WorldModelPage::refresh()
{
    m_pending->stop();
    m_jobs->renew(ModelPageScope);
    ImaginedWorlds::History history = ImaginedWorlds::historyOf(m_workspace->worlds(), m_includeApproximate);
    m_historyWorlds = int(history.worlds.size());
    m_approximateLeftOut = history.approximateLeftOut;
    if (history.worlds.isEmpty()) {
        fitted({});
        return;
    }
    m_summary->setText(tr("Fitting the world models over %n history world(s)…", nullptr, m_historyWorlds));
    m_jobs->then(ModelPageScope, QtConcurrent::run([worlds = std::move(history.worlds)] { return fitTasks(worlds); }), this,
                 [this](QList<TaskModel> tasks) { fitted(std::move(tasks)); });
}

void WorldModelPage::fitted(QList<TaskModel> tasks)
{
    // Keep the task shown (a new world of it, Settings changed), else the
    // selected world's, else the newest world's.
    std::optional<std::optional<QString>> before;
    if (const TaskModel *t = shownTask())
        before.emplace(t->task);
    m_tasks = std::move(tasks);
    m_shown = -1;
    int index = -1;
    for (int i = 0; before && i < m_tasks.size() && index < 0; ++i) {
        if (m_tasks.at(i).task == *before)
            index = i;
    }
    if (index < 0)
        index = taskOfRow(m_currentRow);
    if (index < 0 && !m_tasks.isEmpty())
        index = int(std::max_element(m_tasks.cbegin(), m_tasks.cend(),
                                     [](const TaskModel &a, const TaskModel &b) { return a.newestPlace < b.newestPlace; })
                    - m_tasks.cbegin());
    {
        const QSignalBlocker block(m_task);
        m_task->clear();
        for (int i = 0; i < m_tasks.size(); ++i) {
            const TaskModel &t = m_tasks.at(i);
            m_task->addItem(tr("%1 (%n world(s))", nullptr, t.worlds).arg(taskLabel(t.task)), i);
            m_task->setItemData(i, t.task ? *t.task : tr("The history worlds whose tree names no task"), Qt::ToolTipRole);
        }
        m_task->setEnabled(!m_tasks.isEmpty());
    }
    if (index >= 0) {
        showTask(index);
        return;
    }
    m_model = {};
    if (m_approximateLeftOut == 0)
        m_summary->setText(tr("No history world: the world model is fitted over the project's finished iterations. "
                              "Open a project with iterations."));
    else
        m_summary->setText(tr("No history world: the project's %n finished iteration(s) are approximate, and the dreams "
                              "leave them out unless Settings ▸ Include approximate worlds takes them.",
                              nullptr, m_approximateLeftOut));
    redraw();
    fillTable();
    fillProbes();
    emit modelFitted(0);
}

void WorldModelPage::showTask(int index)
{
    if (index < 0 || index >= m_tasks.size())
        return;
    m_shown = index;
    const TaskModel &t = m_tasks.at(index);
    m_model = t.model;
    if (m_task->currentIndex() != index) {
        const QSignalBlocker block(m_task);
        m_task->setCurrentIndex(index);
    }

    const QJsonValue cap = m_model.value(QLatin1String("cap"));
    const QStringList directions = m_model.value(QLatin1String("directions")).toVariant().toStringList();
    const int nmin = m_model.value(QLatin1String("min_samples")).toInt();
    int blind = 0;
    for (const WorldModel::Evidence &e : t.evidence)
        blind += e.blind ? 1 : 0;
    QStringList parts;
    parts << tr("<b>%1</b>: fitted over <b>%n</b> history world(s) of this task, as a dream fits it", nullptr, t.worlds)
                 .arg(taskLabel(t.task).toHtmlEscaped());
    if (m_historyWorlds > t.worlds)
        parts << tr("%n history world(s) of other tasks have their own model", nullptr, m_historyWorlds - t.worlds);
    if (m_approximateLeftOut > 0)
        parts << tr("%n approximate world(s) left out, as the dreams leave them out (Settings ▸ Include approximate "
                    "worlds)",
                    nullptr, m_approximateLeftOut);
    parts << (directions.isEmpty() ? tr("directions from the cells' tags")
                                   : tr("directions %1").arg(directions.join(QStringLiteral(", ")).toHtmlEscaped()));
    parts << tr("a stratum with fewer than %1 values falls back to a wider one").arg(nmin);
    parts << (cap.isDouble() ? tr("cap <b>%1</b>").arg(QString::number(cap.toDouble(), 'g', 6))
                             : m_model.value(QLatin1String("capped")).toBool() ? tr("no cap (no ok score)")
                                                                                : tr("cap off"));
    const int deepest = m_model.value(QLatin1String("deepest_gain")).toInt();
    parts << (deepest > 0 ? tr("deepest gain at depth %1 (the anchored rule keeps blind depths up to %2 uncertain)")
                                .arg(deepest)
                                .arg(deepest + anchoredWindow())
                          : tr("no gain yet over a branch's best (the anchored rule keeps blind depths up to %1 uncertain)")
                                .arg(anchoredWindow()));
    if (blind > 0)
        parts << tr("<b>%n</b> blind row(s) in the table, up to depth %1", nullptr, blind).arg(t.maxAttempt);
    m_summary->setText(parts.join(QStringLiteral("; ")) + QLatin1Char('.'));
    redraw();
    fillTable();
    fillProbes();
    emit modelFitted(t.worlds);
}

void WorldModelPage::showPanel(WorldModelPlot::Panel panel)
{
    m_panel->setCurrentIndex(m_panel->findData(int(panel)));
    redraw();
}

void WorldModelPage::setDark(bool dark)
{
    m_dark = dark;
    redraw();
    fillTable(); // the blind rows' tint
}

void WorldModelPage::redraw()
{
    WorldModelPlot::populate(m_plot, m_model, WorldModelPlot::Panel(m_panel->currentData().toInt()), m_dark);
}

void WorldModelPage::fillTable()
{
    const FigureTable data = figureData();
    // The data's columns: quantity, stratum, attempt, count, mean, min, max, failures, blind. The table shows
    // whether a row is blind next to its count.
    const QStringList headers{tr("Quantity"), tr("Stratum"), tr("Depth"), tr("Count"), tr("Evidence"), tr("Mean / rate"),
                              tr("Min"), tr("Max"), tr("Failures")};
    const int columnOf[] = {0, 1, 2, 3, 5, 6, 7, 8};
    const int EvidenceColumn = 4;
    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(data.rows.size()));
    m_table->horizontalHeaderItem(EvidenceColumn)
        ->setToolTip(tr("\"blind\": fewer than NMIN values here and a draw falls back to another stratum (docs/online.md, "
                        "\"Blind strata\"); \"pooled\": too few values in this direction, the draw uses the pooled "
                        "stratum at the same depth"));
    auto quantity = [](const QString &code) {
        if (code == QLatin1String("first_score"))
            return tr("first-attempt scores");
        if (code == QLatin1String("gain"))
            return tr("gain over the branch's best");
        if (code == QLatin1String("failure_rate"))
            return tr("failure rate");
        if (code == QLatin1String("cap"))
            return tr("cap");
        return code;
    };
    const int nmin = m_model.value(QLatin1String("min_samples")).toInt();
    // A tint that reads on the light and the dark palette, with the word in its own column.
    const QColor blindTint = m_dark ? QColor(230, 140, 20, 95) : QColor(255, 170, 40, 80);
    for (int r = 0; r < data.rows.size(); ++r) {
        const QStringList &row = data.rows.at(r);
        const QString &code = row.at(0);
        const QString &stratum = row.at(1);
        const int depth = row.at(2).toInt();
        const bool isBlind = row.value(8) == QLatin1String("true");
        const bool pooled = !isBlind && code == QLatin1String("gain") && stratum != WorldModel::pooled()
                            && row.at(3).toInt() < nmin;
        QString why;
        if (isBlind && code == QLatin1String("first_score"))
            why = stratum == WorldModel::pooled()
                      ? tr("Blind: fewer than %1 first-attempt scores in the whole history of this task, so every first "
                           "score is drawn from these few values (0 when there are none).")
                            .arg(nmin)
                      : tr("Blind: fewer than %1 first-attempt scores in this direction, so its branches' first scores "
                           "are drawn from the pooled stratum. A probe on an unopened branch of this direction fills it.")
                            .arg(nmin);
        else if (isBlind)
            why = tr("Blind: fewer than %1 gains at depth %2 in this stratum and in the pool, so a gain at this depth is "
                     "drawn from another depth's gains: the model knows nothing of depth %2. The widened imagination "
                     "rule keeps such a depth uncertain instead of capped; a probe one attempt deeper on the best branch "
                     "fills it.")
                      .arg(nmin)
                      .arg(depth);
        else if (pooled)
            why = tr("Fewer than %1 gains at depth %2 in this direction: a gain here is drawn from the pooled stratum's "
                     "gains at the same depth.")
                      .arg(nmin)
                      .arg(depth);
        for (int c = 0; c < 8 && c < row.size(); ++c) {
            QString text = row.at(c);
            if (c == 0)
                text = quantity(text);
            else if (c == 1)
                text = WorldModelPlot::stratumLabel(text);
            else if (c >= 4 && c <= 6 && !text.isEmpty())
                text = QString::number(text.toDouble(), 'g', 6); // every digit is in the exported data
            auto *item = new QTableWidgetItem(text);
            if (c >= 2)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            m_table->setItem(r, columnOf[c], item);
        }
        auto *evidence = new QTableWidgetItem(isBlind ? tr("blind") : pooled ? tr("pooled") : QString());
        if (isBlind) {
            QFont bold = evidence->font();
            bold.setBold(true);
            evidence->setFont(bold);
        }
        m_table->setItem(r, EvidenceColumn, evidence);
        for (int c = 0; c < m_table->columnCount(); ++c) {
            QTableWidgetItem *item = m_table->item(r, c);
            if (!item)
                m_table->setItem(r, c, item = new QTableWidgetItem);
            if (isBlind)
                item->setBackground(blindTint);
            if (!why.isEmpty())
                item->setToolTip(why);
        }
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
}

void WorldModelPage::fillProbes()
{
    m_probes->clear();
    const TaskModel *t = shownTask();
    if (!t) {
        m_probeHeading->setText(tr("Probes the next deployment would make: none without a history world."));
        return;
    }
    m_probeHeading->setText(tr("Probes the next deployment would make (--probe auto: at most %n call(s)), planned on "
                               "%1, the newest world of this task:",
                               nullptr, ProbeSetting::AutoCalls)
                                .arg(t->newestWorld));
    for (const PlannedProbe &p : t->probes) {
        QString text;
        if (p.call.kind == ProbeCall::Kind::Depth)
            text = p.direction.isEmpty()
                       ? tr("%1: one attempt deeper on branch %2, the best branch; depth %3 had %n gain(s)", nullptr,
                            p.count)
                             .arg(p.call.cellId())
                             .arg(p.call.branch)
                             .arg(p.call.attempt)
                       : tr("%1: one attempt deeper on branch %2, the best branch; depth %3 of %4 had %n gain(s)",
                            nullptr, p.count)
                             .arg(p.call.cellId())
                             .arg(p.call.branch)
                             .arg(p.call.attempt)
                             .arg(p.direction);
        else
            text = p.direction.isEmpty()
                       ? tr("%1: first attempt of unopened branch %2; first attempts had %n value(s)", nullptr, p.count)
                             .arg(p.call.cellId())
                             .arg(p.call.branch)
                       : tr("%1: first attempt of unopened branch %2; first attempts of %3 had %n value(s)", nullptr,
                            p.count)
                             .arg(p.call.cellId())
                             .arg(p.call.branch)
                             .arg(p.direction);
        auto *item = new QListWidgetItem(text, m_probes);
        item->setData(Qt::UserRole, p.call.cellId());
        item->setToolTip(tr("The probe cell would be tagged \"probe\" with probe_reason \"%1\".").arg(p.call.reason));
    }
    if (t->probes.isEmpty()) {
        auto *none = new QListWidgetItem(tr("none: nothing the grid allows is blind"), m_probes);
        none->setFlags(Qt::NoItemFlags);
    }
}

QString WorldModelPage::figureName() const
{
    const TaskModel *t = shownTask();
    const QString panel = WorldModelPlot::title(WorldModelPlot::Panel(m_panel->currentData().toInt()));
    return t ? tr("World model of %1 — %2").arg(taskLabel(t->task), panel) : tr("World model — %1").arg(panel);
}

FigureExport::Painter WorldModelPage::figurePainter()
{
    if (m_model.isEmpty())
        return {};
    return FigureLayout::paperPainterFor(m_plot, m_dark, [this](bool dark) {
        WorldModelPlot::populate(m_plot, m_model, WorldModelPlot::Panel(m_panel->currentData().toInt()), dark);
    });
}

FigureTable WorldModelPage::figureData() const
{
    const TaskModel *t = shownTask();
    return t ? evidenceTable(*t) : FigureTable{};
}

} // namespace dreamrsi
