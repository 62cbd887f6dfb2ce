#include "worldmodelpage.h"

#include "figures/figuredata.h"
#include "figures/figurelayout.h"
#include "figures/qcp.h"
#include "session/imaginedworlds.h"
#include "session/jobtracker.h"
#include "models/workspace.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace dreamrsi {

namespace {
const QString Scope = QStringLiteral("world model");
} // namespace

WorldModelPage::WorldModelPage(Workspace *workspace, JobTracker *jobs, QWidget *parent)
    : QWidget(parent)
    , m_workspace(workspace)
    , m_jobs(jobs ? jobs : new JobTracker(this))
{
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
    m_table->setAlternatingRowColors(true);
    m_table->setSortingEnabled(false);

    auto *top = new QHBoxLayout;
    top->addWidget(m_panel);
    top->addWidget(m_summary, 1);
    auto *splitter = new QSplitter(Qt::Vertical);
    splitter->addWidget(m_plot);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);
    connect(m_panel, &QComboBox::currentIndexChanged, this, &WorldModelPage::redraw);

    // Several changes at once (a project opening) fit the model once.
    m_pending = new QTimer(this);
    m_pending->setSingleShot(true);
    m_pending->setInterval(0);
    connect(m_pending, &QTimer::timeout, this, &WorldModelPage::refresh);
    connect(workspace, &Workspace::worldsChanged, this, &WorldModelPage::scheduleRefresh);
    connect(workspace, &Workspace::worldChanged, this, &WorldModelPage::scheduleRefresh);
    connect(workspace, &Workspace::worldsCleared, this, &WorldModelPage::scheduleRefresh);
    refresh();
}

void WorldModelPage::scheduleRefresh()
{
    m_pending->start();
}

void WorldModelPage::refresh()
{
    m_pending->stop();
    m_jobs->renew(Scope);
    ImaginedWorlds::History history = ImaginedWorlds::historyOf(m_workspace->worlds());
    const int worlds = int(history.worlds.size());
    if (worlds == 0) {
        m_model = {};
        m_worlds = 0;
        m_summary->setText(tr("No history world: the world model is fitted over the project's finished iterations. "
                              "Open a project with iterations."));
        redraw();
        fillTable();
        emit modelFitted(0);
        return;
    }
    m_summary->setText(tr("Fitting the world model over %n history world(s)…", nullptr, worlds));
    m_jobs->then(Scope,
                 QtConcurrent::run([replayWorlds = std::move(history.worlds)] { return ImaginedWorlds::fit(replayWorlds).toJson(); }),
                 this, [this, worlds](const QJsonObject &model) {
                     m_model = model;
                     m_worlds = worlds;
                     const QJsonValue cap = model.value(QLatin1String("cap"));
                     const QStringList directions = model.value(QLatin1String("directions")).toVariant().toStringList();
                     QStringList parts;
                     parts << tr("Fitted over <b>%n</b> history world(s) as a dream fits it", nullptr, worlds);
                     parts << (directions.isEmpty() ? tr("directions from the cells' tags")
                                                    : tr("directions %1").arg(directions.join(QStringLiteral(", ")).toHtmlEscaped()));
                     parts << tr("a stratum with fewer than %1 values falls back to a wider one")
                                  .arg(model.value(QLatin1String("min_samples")).toInt());
                     parts << (cap.isDouble() ? tr("cap <b>%1</b>").arg(QString::number(cap.toDouble(), 'g', 6))
                                              : model.value(QLatin1String("capped")).toBool() ? tr("no cap (no ok score)")
                                                                                               : tr("cap off"));
                     m_summary->setText(parts.join(QStringLiteral("; ")) + QLatin1Char('.'));
                     redraw();
                     fillTable();
                     emit modelFitted(worlds);
                 });
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
}

void WorldModelPage::redraw()
{
    WorldModelPlot::populate(m_plot, m_model, WorldModelPlot::Panel(m_panel->currentData().toInt()), m_dark);
}

void WorldModelPage::fillTable()
{
    const FigureTable data = figureData();
    const QStringList headers{tr("Quantity"), tr("Stratum"), tr("Depth"), tr("Count"), tr("Mean / rate"), tr("Min"), tr("Max"),
                              tr("Failures")};
    m_table->clear();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_table->setRowCount(int(data.rows.size()));
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
    for (int r = 0; r < data.rows.size(); ++r) {
        const QStringList &row = data.rows.at(r);
        for (int c = 0; c < row.size() && c < headers.size(); ++c) {
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
            m_table->setItem(r, c, item);
        }
    }
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
}

QString WorldModelPage::figureName() const
{
    return tr("World model — %1").arg(WorldModelPlot::title(WorldModelPlot::Panel(m_panel->currentData().toInt())));
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
    return m_model.isEmpty() ? FigureTable{} : FigureData::worldModel(m_model);
}

} // namespace dreamrsi
