#include "comparepage.h"

#include "compareplot.h"
#include "figures/figurelayout.h"
#include "figures/qcp.h"
#include "session/uistate.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace dreamrsi {

namespace {

enum Column { LabelColumn, SourceColumn, KindColumn, IterationsColumn, ColumnCount };

QString iterationsText(const CompareSourceSpec &spec)
{
    if (!spec.iterations)
        return {};
    return QStringLiteral("%1-%2").arg(spec.iterations->first).arg(spec.iterations->second);
}

/// "A-B" or "N" as iteration ids; none for empty text or text that is no range.
std::optional<std::pair<IterationId, IterationId>> parseIterations(const QString &text, bool *valid)
{
    *valid = true;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    const QStringList ends = t.split(QLatin1Char('-'));
    bool okA = false, okB = false;
    const IterationId a = ends.value(0).trimmed().toLongLong(&okA);
    const IterationId b = ends.size() == 1 ? a : ends.value(1).trimmed().toLongLong(&okB);
    if (ends.size() == 1)
        okB = okA;
    if (ends.size() > 2 || !okA || !okB || a < 1 || b < a) {
        *valid = false;
        return std::nullopt;
    }
    return std::pair{a, b};
}

} // namespace

ComparePage::ComparePage(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    auto *addProject = new QPushButton(tr("Add Project…"));
    auto *addRun = new QPushButton(tr("Add Run Folder…"));
    auto *addFile = new QPushButton(tr("Add Tree or Database…"));
    auto *remove = new QPushButton(tr("Remove"));
    addProject->setToolTip(tr("A project's iterations, one after another, as one run"));
    addRun->setToolTip(tr("An OpenEvolve output, checkpoint or db folder"));
    addFile->setToolTip(tr("A tree file, or a ShinkaEvolve database"));
    m_axis = new QComboBox;
    m_axis->addItem(tr("Agent calls"), CompareCurves::axisName(CompareAxis::Calls));
    m_axis->addItem(tr("Cost (USD)"), CompareCurves::axisName(CompareAxis::Usd));
    m_axis->addItem(tr("Elapsed time"), CompareCurves::axisName(CompareAxis::Seconds));
    m_metric = new QLineEdit;
    m_metric->setPlaceholderText(tr("score"));
    m_metric->setToolTip(tr("The metric that scores cells; empty for their score"));
    m_metric->setMaximumWidth(160);
    bar->addWidget(addProject);
    bar->addWidget(addRun);
    bar->addWidget(addFile);
    bar->addWidget(remove);
    bar->addStretch(1);
    bar->addWidget(new QLabel(tr("Against:")));
    bar->addWidget(m_axis);
    bar->addWidget(new QLabel(tr("Score by:")));
    bar->addWidget(m_metric);
    layout->addLayout(bar);

    m_table = new QTableWidget(0, ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Label"), tr("Source"), tr("Kind"), tr("Iterations")});
    m_table->horizontalHeader()->setSectionResizeMode(SourceColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setMaximumHeight(150);
    m_table->setToolTip(tr("Sources with the same label are seeds of one setting: drawn as their mean with a 95 % band"));
    layout->addWidget(m_table);

    m_plot = new QCustomPlot;
    m_plot->setMinimumHeight(220);
    layout->addWidget(m_plot, 1);
    m_notes = new QLabel;
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_notes);

    connect(addProject, &QPushButton::clicked, this, &ComparePage::chooseProjects);
    connect(addRun, &QPushButton::clicked, this, &ComparePage::chooseRunFolder);
    connect(addFile, &QPushButton::clicked, this, &ComparePage::chooseFiles);
    connect(remove, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        QList<int> indices;
        for (const QModelIndex &i : rows)
            indices.append(i.row());
        std::sort(indices.begin(), indices.end(), std::greater<int>());
        for (const int r : std::as_const(indices))
            removeSource(r);
    });
    connect(m_axis, &QComboBox::currentIndexChanged, this, [this] {
        save();
        redraw();
    });
    connect(m_metric, &QLineEdit::editingFinished, this, [this] {
        save();
        readMissing();
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem *item) {
        const int row = item->row();
        if (row < 0 || row >= m_specs.size())
            return;
        if (item->column() == LabelColumn) {
            m_specs[row].label = item->text().trimmed();
        } else if (item->column() == IterationsColumn && m_specs.at(row).kind == CompareSourceSpec::Kind::Project) {
            bool valid = false;
            const auto range = parseIterations(item->text(), &valid);
            if (!valid) {
                const QSignalBlocker block(m_table);
                item->setText(iterationsText(m_specs.at(row)));
                m_notes->setText(tr("Iterations are ids A-B (both included) or one id; empty for all."));
                return;
            }
            m_specs[row].iterations = range;
        } else {
            return;
        }
        save();
        readMissing();
    });
    rebuildTable();
    redraw();
}

QString ComparePage::keyOf(const CompareSourceSpec &spec, const QString &metric)
{
    return QStringLiteral("%1|%2|%3|%4").arg(int(spec.kind)).arg(spec.path, iterationsText(spec), metric);
}

void ComparePage::setProject(const QString &projectPath)
{
    m_project = projectPath;
    m_served.clear();
    load();
}

void ComparePage::setServedProject(const QString &copyPath)
{
    const QString before = m_served;
    m_project = copyPath;
    m_served = copyPath;
    bool replaced = false;
    for (CompareSourceSpec &spec : m_specs) {
        if (!before.isEmpty() && spec.kind == CompareSourceSpec::Kind::Project && spec.path == before) {
            spec.path = copyPath;
            replaced = true;
        }
    }
    if (!replaced) {
        if (before.isEmpty())
            m_specs.clear(); // the set of no project is not the served project's
        m_specs.prepend(CompareSourceSpec{CompareSourceSpec::Kind::Project, copyPath, std::nullopt, QString()});
    }
    rebuildTable();
    readMissing();
}

void ComparePage::addPaths(const QStringList &paths)
{
    for (const QString &path : paths)
        addSource(CompareSourceSpec{CompareCurves::kindOf(path), QFileInfo(path).absoluteFilePath(), std::nullopt, QString()});
}

void ComparePage::addSource(const CompareSourceSpec &spec)
{
    m_specs.append(spec);
    rebuildTable();
    save();
    readMissing();
}

void ComparePage::removeSource(int row)
{
    if (row < 0 || row >= m_specs.size())
        return;
    m_specs.removeAt(row);
    rebuildTable();
    save();
    redraw();
}

void ComparePage::setLabel(int row, const QString &label)
{
    if (row >= 0 && row < m_table->rowCount())
        m_table->item(row, LabelColumn)->setText(label); // itemChanged keeps the spec
}

void ComparePage::setAxis(CompareAxis axis)
{
    m_axis->setCurrentIndex(m_axis->findData(CompareCurves::axisName(axis)));
}

CompareAxis ComparePage::axis() const
{
    return CompareCurves::axisFromName(m_axis->currentData().toString()).value_or(CompareAxis::Calls);
}

void ComparePage::setScoreMetric(const QString &metric)
{
    m_metric->setText(metric);
    save();
    readMissing();
}

QString ComparePage::notesText() const
{
    return m_notes->text();
}

void ComparePage::setDark(bool dark)
{
    m_dark = dark;
    redraw();
}

void ComparePage::rebuildTable()
{
    const QSignalBlocker block(m_table);
    m_table->setRowCount(int(m_specs.size()));
    for (int row = 0; row < int(m_specs.size()); ++row) {
        const CompareSourceSpec &spec = m_specs.at(row);
        auto *label = new QTableWidgetItem(spec.label);
        label->setToolTip(tr("Empty: the source's own name (%1)").arg(CompareCurves::nameOf(spec)));
        m_table->setItem(row, LabelColumn, label);
        auto *source = new QTableWidgetItem(CompareCurves::nameOf(spec));
        source->setToolTip(spec.path);
        source->setFlags(source->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, SourceColumn, source);
        const QString kind = spec.kind == CompareSourceSpec::Kind::Project ? tr("project")
                             : spec.kind == CompareSourceSpec::Kind::Run   ? tr("run")
                                                                           : tr("tree file");
        auto *kindItem = new QTableWidgetItem(kind);
        kindItem->setFlags(kindItem->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, KindColumn, kindItem);
        auto *iterations = new QTableWidgetItem(iterationsText(spec));
        if (spec.kind == CompareSourceSpec::Kind::Project)
            iterations->setToolTip(tr("Iteration ids A-B (both included); empty for all"));
        else
            iterations->setFlags(iterations->flags() & ~Qt::ItemIsEditable);
        m_table->setItem(row, IterationsColumn, iterations);
    }
    m_table->resizeColumnToContents(LabelColumn);
    m_table->resizeColumnToContents(KindColumn);
}

void ComparePage::readMissing()
{
    const QString metric = m_metric->text().trimmed();
    for (const CompareSourceSpec &spec : std::as_const(m_specs)) {
        const QString key = keyOf(spec, metric);
        if (m_read.contains(key))
            continue;
        m_read.insert(key, Entry{}); // in flight
        ++m_reading;
        auto *watcher = new QFutureWatcher<Result<CompareSource>>(this);
        connect(watcher, &QFutureWatcher<Result<CompareSource>>::finished, this, [this, watcher, key] {
            const Result<CompareSource> read = watcher->result();
            watcher->deleteLater();
            --m_reading;
            m_read[key] = read ? Entry{*read.value, QString()} : Entry{std::nullopt, read.error};
            redraw();
        });
        CompareSourceSpec unlabelled = spec;
        unlabelled.label.clear(); // the label is applied when drawing
        watcher->setFuture(QtConcurrent::run([unlabelled, metric] { return CompareCurves::read(unlabelled, metric); }));
    }
    redraw();
}

void ComparePage::redraw()
{
    if (m_reading > 0) {
        m_notes->setText(tr("Reading %n source(s)…", nullptr, m_reading));
        return;
    }
    const QString metric = m_metric->text().trimmed();
    QList<CompareSource> sources;
    QStringList problems;
    for (const CompareSourceSpec &spec : std::as_const(m_specs)) {
        const Entry entry = m_read.value(keyOf(spec, metric));
        if (!entry.source) {
            if (!entry.error.isEmpty())
                problems.append(entry.error);
            continue;
        }
        CompareSource s = *entry.source;
        s.label = spec.label.isEmpty() ? s.name : spec.label;
        sources.append(std::move(s));
    }
    m_result = CompareCurves::compare(sources, axis());
    ComparePlot::populate(m_plot, m_result, m_dark);
    QStringList notes;
    if (m_result.tasks.size() > 1) {
        // Scores of different tasks share the y axis but do not compare: said first.
        QStringList perTask;
        for (const QString &task : std::as_const(m_result.tasks)) {
            QStringList names;
            for (const CompareSource &source : std::as_const(sources)) {
                if (source.tasks.contains(task) && !names.contains(source.name))
                    names.append(source.name);
            }
            perTask.append(tr("%1 (%2)").arg(task, names.join(QStringLiteral(", "))));
        }
        notes.append(tr("⚠ These sources are of different tasks, whose scores are on different scales: %1. "
                        "Compare one task at a time.")
                         .arg(perTask.join(QStringLiteral("; "))));
    }
    for (const QString &p : std::as_const(problems))
        notes.append(tr("Cannot read: %1").arg(p));
    for (const CompareCurve &curve : std::as_const(m_result.curves)) {
        if (curve.snapshot)
            notes.append(tr("%1: a population snapshot: %2 holds the %3 programs that survived iterations 0-%4, not every "
                            "program the run made; drawn against the iteration each was found, not calls")
                             .arg(curve.name, curve.snapshot->checkpoint)
                             .arg(curve.snapshot->programs)
                             .arg(curve.snapshot->lastIteration));
    }
    for (const CompareGroup &group : std::as_const(m_result.groups)) {
        for (const CompareLeftOut &left : group.unrecorded) {
            switch (left.gap) {
            case CompareGap::Cost:
                notes.append(tr("%1: no cost recorded (none above 0), no USD curve").arg(left.name));
                break;
            case CompareGap::Time:
                notes.append(tr("%1: no timestamps recorded, no time curve").arg(left.name));
                break;
            case CompareGap::Snapshot: {
                const RunImport::PopulationSnapshot &snap = *left.snapshot;
                const QString what = tr("%1: a population snapshot: %2 holds the %3 programs that survived iterations 0-%4, "
                                        "and not all of them record the iteration they were found, so it is not drawn by calls.")
                                         .arg(left.name, snap.checkpoint)
                                         .arg(snap.programs)
                                         .arg(snap.lastIteration);
                notes.append(snap.history.isEmpty()
                                 ? what + QLatin1Char(' ')
                                       + tr("No db/ with the run's full history beside it (none at %1).").arg(snap.historyPlace)
                                 : what + QLatin1Char(' ') + tr("Add %1 instead: every program of the run.").arg(snap.history));
                break;
            }
            }
        }
    }
    if (m_specs.isEmpty())
        notes.append(tr("Add projects, runs or tree files to compare; give seeds of one setting the same label."));
    m_notes->setText(notes.join(QLatin1Char('\n')));
    emit refreshed();
}

void ComparePage::save() const
{
    if (m_loading || !m_served.isEmpty())
        return;
    UiState::CompareSet set;
    set.axis = m_axis->currentData().toString();
    set.metric = m_metric->text().trimmed();
    for (const CompareSourceSpec &spec : m_specs)
        set.sources.append({int(spec.kind), spec.path, spec.label, iterationsText(spec)});
    UiState::setCompareSet(m_project, set);
}

void ComparePage::load()
{
    m_loading = true;
    const UiState::CompareSet set = UiState::compareSet(m_project);
    m_specs.clear();
    for (const UiState::CompareSet::Source &source : set.sources) {
        CompareSourceSpec spec;
        spec.kind = source.kind == int(CompareSourceSpec::Kind::Project) ? CompareSourceSpec::Kind::Project
                    : source.kind == int(CompareSourceSpec::Kind::Run)   ? CompareSourceSpec::Kind::Run
                                                                         : CompareSourceSpec::Kind::Tree;
        spec.path = source.path;
        spec.label = source.label;
        bool valid = false;
        spec.iterations = parseIterations(source.iterations, &valid);
        if (!spec.path.isEmpty())
            m_specs.append(spec);
    }
    {
        const QSignalBlocker block(m_axis);
        const int axisIndex = m_axis->findData(set.axis.value_or(CompareCurves::axisName(CompareAxis::Calls)));
        m_axis->setCurrentIndex(std::max(0, axisIndex));
    }
    m_metric->setText(set.metric);
    m_loading = false;
    rebuildTable();
    readMissing();
}

void ComparePage::chooseProjects()
{
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Add Projects to Compare"), QFileInfo(m_project).absolutePath(),
                                                            tr("Projects (*.dreamrsi);;All files (*)"));
    for (const QString &path : paths)
        addSource(CompareSourceSpec{CompareSourceSpec::Kind::Project, path, std::nullopt, QString()});
}

void ComparePage::chooseRunFolder()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Add an OpenEvolve Run to Compare"), QFileInfo(m_project).absolutePath());
    if (!dir.isEmpty())
        addPaths({dir});
}

void ComparePage::chooseFiles()
{
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Add Tree Files or ShinkaEvolve Databases to Compare"), QFileInfo(m_project).absolutePath(),
                                      tr("Trees and databases (*.json *.sqlite *.sqlite3 *.db);;All files (*)"));
    addPaths(paths);
}

QString ComparePage::figureName() const
{
    return tr("Compare");
}

FigureExport::Painter ComparePage::figurePainter()
{
    if (m_result.curves.isEmpty())
        return {};
    return FigureLayout::paperPainterFor(m_plot, m_dark, [this](bool dark) {
        m_dark = dark;
        ComparePlot::populate(m_plot, m_result, dark);
    });
}

FigureTable ComparePage::figureData() const
{
    if (m_result.curves.isEmpty())
        return {};
    return ComparePlot::data(m_result);
}

} // namespace dreamrsi
