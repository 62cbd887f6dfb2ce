#include "inspectorwidget.h"

#include "codehighlighter.h"
#include "failglyph.h"
#include "treecellstyles.h"
#include "unifieddiff.h"

#include "model/cellpath.h"
#include "models/reevaluationsummary.h"
#include "replay/worldmodel.h"
#include "session/remoteprojectsession.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPointer>
#include <QHBoxLayout>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

#include <cmath>

namespace dreamrsi {

namespace {
QPlainTextEdit *makeCodeView()
{
    auto *edit = new QPlainTextEdit;
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    return edit;
}

QString jsonText(const QJsonValue &v)
{
    if (v.isString())
        return v.toString();
    if (v.isDouble())
        return QString::number(v.toDouble(), 'g', 12);
    if (v.isBool())
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    if (v.isNull() || v.isUndefined())
        return QStringLiteral("null");
    if (v.isArray())
        return QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact));
    return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
}

/// A payload object of plain values (an agent call's model, tokens and cost,
/// timings) as a small table of its own, one key a line, numbers rounded for
/// reading; empty when the object holds arrays or objects (shown as JSON).
QString nestedTableHtml(const QJsonObject &object)
{
    if (object.isEmpty())
        return {};
    QString html = QStringLiteral("<table cellspacing='0' cellpadding='1'>");
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        const QJsonValue v = it.value();
        if (v.isArray() || v.isObject())
            return {};
        const QString text = v.isDouble() ? QString::number(v.toDouble(), 'g', 6) : jsonText(v);
        html += QStringLiteral("<tr><td>%1&nbsp;&nbsp;</td><td>%2</td></tr>").arg(it.key().toHtmlEscaped(), text.toHtmlEscaped());
    }
    return html + QStringLiteral("</table>");
}

// Payload keys that carry evaluator output, in the order they are shown.
const char *const OutputKeys[] = {"evaluator_output", "output", "stdout", "stderr", "log", "compile_log"};
} // namespace

InspectorWidget::InspectorWidget(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_pages = new QTabWidget;
    m_pages->setDocumentMode(true);
    layout->addWidget(m_pages);
    // Re-evaluation: the cell's repeats and Re-evaluate… (docs/online.md#re-evaluating-the-best).
    auto *reevaluationRow = new QHBoxLayout;
    reevaluationRow->setContentsMargins(4, 2, 4, 2);
    m_reevaluation = new QLabel;
    m_reevaluation->setObjectName(QStringLiteral("reevaluationSummary"));
    m_reevaluation->setWordWrap(true);
    m_reevaluate = new QPushButton(tr("Re-evaluate…"));
    m_reevaluate->setToolTip(tr("Evaluate this cell's stored program again, several times, to see whether its score was lucky"));
    m_reevaluate->setEnabled(false);
    reevaluationRow->addWidget(m_reevaluation, 1);
    reevaluationRow->addWidget(m_reevaluate);
    layout->addLayout(reevaluationRow);
    connect(m_reevaluate, &QPushButton::clicked, this, [this] {
        if (m_cellIndex >= 0)
            emit reevaluateRequested(m_cellIndex);
    });

    m_fields = new QTextBrowser;
    m_fields->setOpenLinks(false);
    m_proposal = new QTextBrowser;
    m_proposal->setOpenExternalLinks(true);
    m_program = makeCodeView();
    m_programHighlighter = new CodeHighlighter(m_program->document());
    m_diff = makeCodeView();
    m_diffHighlighter = new CodeHighlighter(m_diff->document(), CodeHighlighter::Language::Diff);
    m_output = makeCodeView();
    m_metrics = new QTableWidget(0, 2);
    m_metrics->setHorizontalHeaderLabels({tr("Metric"), tr("Value")});
    m_metrics->horizontalHeader()->setStretchLastSection(true);
    m_metrics->verticalHeader()->hide();
    m_metrics->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_metrics->setSortingEnabled(true);

    m_pages->addTab(m_fields, tr("Fields"));
    m_pages->addTab(m_proposal, tr("Proposal"));
    m_pages->addTab(m_program, tr("Program"));
    m_pages->addTab(m_diff, tr("Diff"));
    m_pages->addTab(m_output, tr("Output"));
    m_pages->addTab(m_metrics, tr("Metrics"));
    // The path from the initial program to the cell; a click selects the step on the tree.
    m_path = new QTableWidget(0, 5);
    m_path->setHorizontalHeaderLabels({tr("Step"), tr("Cell"), tr("Score"), tr("Gain"), tr("Proposal")});
    m_path->horizontalHeader()->setStretchLastSection(true);
    m_path->verticalHeader()->hide();
    m_path->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_path->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_pages->addTab(m_path, tr("Path"));
    connect(m_path, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row >= 0 && row < m_pathCells.size())
            emit pathStepActivated(m_pathCells.at(row));
    });
    // A served project's cell: its stored files, each fetched when chosen (docs/remote.md).
    auto *files = new QWidget;
    auto *filesLayout = new QVBoxLayout(files);
    filesLayout->setContentsMargins(0, 0, 0, 0);
    m_files = new QListWidget;
    m_files->setObjectName(QStringLiteral("inspectorFiles"));
    m_files->setMaximumHeight(110);
    m_fileText = makeCodeView();
    filesLayout->addWidget(m_files);
    filesLayout->addWidget(m_fileText, 1);
    m_pages->addTab(files, tr("Files"));
    m_pages->setTabToolTip(FilesPage, tr("The files the cell refers to, fetched from the server"));
    connect(m_files, &QListWidget::currentRowChanged, this, &InspectorWidget::showFile);
    clear();
}

QString InspectorWidget::fileText() const
{
    return m_fileText->toPlainText();
}

void InspectorWidget::showFiles()
{
    const quint64 epoch = ++m_filesEpoch;
    m_fileRefs.clear();
    m_files->clear();
    m_fileText->clear();
    RemoteProjectSession *remote = m_tree ? RemoteProjectSession::servingTree(m_tree.get()) : nullptr;
    m_pages->setTabVisible(FilesPage, remote != nullptr);
    if (!remote)
        return;
    m_fileText->setPlainText(tr("Asking %1 for the cell's files…").arg(remote->host()));
    QPointer<InspectorWidget> self(this);
    remote->cellArtifacts(remote->iterationOf(m_tree.get()), m_tree->cells().at(m_cellIndex).id,
                          [self, epoch](Result<QList<ArtifactRef>> refs) {
        if (!self || epoch != self->m_filesEpoch)
            return;
        if (!refs) {
            self->m_fileText->setPlainText(refs.error);
            return;
        }
        self->m_fileRefs = *refs.value;
        if (self->m_fileRefs.isEmpty()) {
            self->m_fileText->setPlainText(tr("The cell refers to no stored files."));
            return;
        }
        const QSignalBlocker quiet(self->m_files);
        for (const ArtifactRef &a : std::as_const(self->m_fileRefs))
            self->m_files->addItem(QStringLiteral("%1 (%2)").arg(a.name, QLocale().formattedDataSize(a.size)));
        self->m_files->setCurrentRow(0);
        self->showFile(0);
    });
}

void InspectorWidget::showFile(int row)
{
    if (row < 0 || row >= m_fileRefs.size() || !m_tree)
        return;
    RemoteProjectSession *remote = RemoteProjectSession::servingTree(m_tree.get());
    if (!remote)
        return;
    const ArtifactRef ref = m_fileRefs.at(row);
    m_fileText->setPlainText(tr("Fetching %1…").arg(ref.name));
    const quint64 epoch = m_filesEpoch;
    QPointer<InspectorWidget> self(this);
    remote->artifact(ref.hash, [self, epoch, row, ref](Result<QByteArray> bytes) {
        if (!self || epoch != self->m_filesEpoch || self->m_files->currentRow() != row)
            return;
        if (!bytes)
            self->m_fileText->setPlainText(bytes.error);
        else if (bytes.value->contains('\0'))
            self->m_fileText->setPlainText(tr("%1: binary, %2").arg(ref.name, QLocale().formattedDataSize(bytes.value->size())));
        else
            self->m_fileText->setPlainText(QString::fromUtf8(*bytes.value));
    });
}

void InspectorWidget::setDark(bool dark)
{
    m_programHighlighter->setDark(dark);
    m_diffHighlighter->setDark(dark);
}

void InspectorWidget::setReevaluation(const std::optional<ReevaluationStats> &stats, const ReevaluationBest &best)
{
    if (!stats) {
        m_reevaluation->clear();
        return;
    }
    QString text = tr("Re-evaluated %n time(s), %1 failed", nullptr, int(stats->repeats.size())).arg(stats->failed);
    if (stats->mean) {
        text += QStringLiteral(" · ");
        text += stats->halfWidth() ? tr("mean %1 ± %2 (95 %)").arg(QString::number(*stats->mean, 'g', 6),
                                                                  ReevaluationSummary::spreadText(*stats->mean, *stats->halfWidth(), 3))
                                   : tr("mean %1").arg(QString::number(*stats->mean, 'g', 6));
        if (stats->sd)
            text += QStringLiteral(", ") + tr("sd %1").arg(ReevaluationSummary::spreadText(*stats->mean, *stats->sd, 3));
    }
    if (stats->lucky)
        text += QStringLiteral(" · ⚠ ") + tr("lucky: the recorded score lies above the interval");
    // The iteration's best by recorded score and best by mean, when they differ.
    if (best.byScore != best.byMean) {
        if (stats->cellId == best.byScore && !best.byMean.isEmpty())
            text += QStringLiteral(" · ") + tr("best by recorded score; best by mean: %1").arg(best.byMean);
        else if (stats->cellId == best.byMean && !best.byScore.isEmpty())
            text += QStringLiteral(" · ") + tr("best by mean; best by recorded score: %1").arg(best.byScore);
    }
    m_reevaluation->setText(text);
}

void InspectorWidget::setReevaluationEnabled(bool enabled)
{
    m_reevaluate->setEnabled(enabled && m_cellIndex >= 0);
}

QString InspectorWidget::reevaluationText() const
{
    return m_reevaluation->text();
}

void InspectorWidget::clear()
{
    m_reevaluation->clear();
    m_reevaluate->setEnabled(false);
    m_tree.reset();
    m_cellIndex = -1;
    m_markdown.clear();
    m_fields->setHtml(QStringLiteral("<p>%1</p>").arg(tr("Click a cell in the tree or the table to inspect it.").toHtmlEscaped()));
    m_proposal->clear();
    m_program->clear();
    m_diff->clear();
    m_output->clear();
    m_metrics->setRowCount(0);
    m_path->setRowCount(0);
    ++m_filesEpoch;
    m_fileRefs.clear();
    m_files->clear();
    m_fileText->clear();
    m_pages->setTabVisible(FilesPage, false);
    if (!m_pathCells.isEmpty()) {
        m_pathCells.clear();
        emit pathChanged(m_pathCells);
    }
}

void InspectorWidget::showCell(std::shared_ptr<const DiscoveryTree> tree, int cellIndex, const QString &imaginedOrigin)
{
    if (!tree || cellIndex < 0 || cellIndex >= tree->cellCount()) {
        clear();
        return;
    }
    m_tree = std::move(tree);
    m_cellIndex = cellIndex;
    const Cell &c = m_tree->cells().at(cellIndex);

    const bool imagined = Imagination::isImagined(c);
    QString html = imagined ? QStringLiteral("<h3>%1 <i>(%2)</i></h3>").arg(c.id.toHtmlEscaped(), tr("imagined").toHtmlEscaped())
                            : QStringLiteral("<h3>%1</h3>").arg(c.id.toHtmlEscaped());
    html += QStringLiteral("<table cellspacing='2' cellpadding='2'>");
    auto row = [&html](const QString &k, const QString &v) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k.toHtmlEscaped(), v.toHtmlEscaped());
    };
    const QString none = tr("none");
    if (imagined) {
        // Not revealed by any policy: a draw of the world model.
        row(tr("Imagined"), imaginedOrigin.isEmpty() ? tr("yes: drawn from the world model, never evaluated")
                                                     : tr("yes: %1").arg(imaginedOrigin));
    }
    row(tr("Branch"), QString::number(c.branch));
    row(tr("Attempt"), QString::number(c.attempt));
    // An imported run (docs/tree-format.md#imported-runs): a fork's real
    // parent is another cell than the chain's, an orphan's is missing.
    const QJsonObject origin = c.payload.value(QLatin1String("origin")).toObject();
    const int chainParent = m_tree->parentIndex(cellIndex);
    const int forkedFrom = m_tree->indexOfId(c.payload.value(QLatin1String("forked_from")).toString());
    const bool orphan = c.payload.value(QLatin1String("orphan")).toBool();
    const int parent = forkedFrom >= 0 ? forkedFrom : chainParent;
    if (forkedFrom >= 0)
        row(tr("Parent"), tr("%1 (a fork: the real parent; the chain starts a new branch)").arg(m_tree->cells().at(forkedFrom).id));
    else if (orphan)
        row(tr("Parent"), tr("missing from the run (an orphan: program %1)")
                              .arg(origin.value(QLatin1String("parent_id")).toString(tr("none"))));
    else
        row(tr("Parent"), chainParent >= 0 ? m_tree->cells().at(chainParent).id
                                           : (origin.isEmpty() ? tr("root") : tr("root (the initial program)")));
    if (!origin.isEmpty()) {
        const auto text = [](const QJsonValue &v) {
            return v.isDouble() ? QString::number(v.toDouble(), 'g', 12) : v.isString() ? v.toString() : QString();
        };
        row(tr("Origin"), tr("%1 program %2").arg(origin.value(QLatin1String("framework")).toString(),
                                                  origin.value(QLatin1String("id")).toString()));
        if (const QString p = text(origin.value(QLatin1String("parent_id"))); !p.isEmpty())
            row(tr("Origin parent"), p);
        for (const auto &[key, label] : {std::pair{"generation", tr("Generation")}, std::pair{"island", tr("Island")},
                                         std::pair{"iteration", tr("Iteration found")}}) {
            if (const QString v = text(origin.value(QLatin1String(key))); !v.isEmpty())
                row(label, v);
        }
        if (origin.contains(QLatin1String("inspirations"))) {
            QStringList ids;
            for (const QJsonValue &id : origin.value(QLatin1String("inspirations")).toArray())
                ids.append(id.toString());
            row(tr("Inspirations"), ids.isEmpty() ? none : ids.join(QStringLiteral(", ")));
        }
    }
    row(tr("Seq"), QString::number(c.seq));
    row(tr("Score"), c.score ? QString::number(*c.score, 'g', 12) : none);
    row(tr("Effective score"), QString::number(c.effectiveScore(), 'g', 12));
    if (m_tree->isScorable())
        row(tr("Share of best"), QStringLiteral("%1 %").arg(100.0 * c.effectiveScore() / m_tree->bestEffectiveScore(), 0, 'f', 1));
    row(tr("Evaluated"), c.evaluated ? tr("yes") : tr("no"));
    row(tr("Valid"), c.valid ? (*c.valid ? tr("yes") : tr("no")) : none);
    // An imagined failure has no class of its own (the world model draws only whether it fails).
    row(tr("Outcome"), imagined && c.failClass != QLatin1String(FailClass::Ok)
                           ? tr("Failure, class not drawn by the world model")
                           : FailGlyphs::label(c.failClass) + QStringLiteral(" (") + c.failClass + QLatin1Char(')'));
    if (c.nValid || c.nTotal)
        row(tr("Tests passed"), QStringLiteral("%1 / %2").arg(c.nValid ? QString::number(*c.nValid) : QStringLiteral("?"),
                                                              c.nTotal ? QString::number(*c.nTotal) : QStringLiteral("?")));
    row(tr("Tags"), c.tags.isEmpty() ? none : c.tags.join(QStringLiteral(", ")));
    if (c.error)
        row(tr("Error"), *c.error);
    if (cellIndex == TreeCellStyles::bestRevealedCell(*m_tree))
        row(tr("Note"), tr("Best cell of this tree"));
    // Remaining payload (agent, timings, …), except the fields with their own page.
    for (auto it = c.payload.constBegin(); it != c.payload.constEnd(); ++it) {
        const QString key = it.key();
        if (key == QLatin1String("proposal") || key == QLatin1String("program") || key == QLatin1String("metrics")
            || key == QLatin1String("origin") || key == QLatin1String("forked_from") || key == QLatin1String("orphan")
            || (imagined && key == QLatin1String("imagined")))
            continue;
        bool isOutput = false;
        for (const char *k : OutputKeys)
            isOutput = isOutput || key == QLatin1String(k);
        if (isOutput)
            continue;
        if (const QString nested = nestedTableHtml(it.value().toObject()); !nested.isEmpty())
            html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(key.toHtmlEscaped(), nested);
        else
            row(key, jsonText(it.value()));
    }
    html += QStringLiteral("</table>");
    m_fields->setHtml(html);

    m_markdown = c.proposal();
    if (m_markdown.isEmpty())
        m_proposal->setHtml(QStringLiteral("<p><i>%1</i></p>").arg(tr("This cell has no proposal.").toHtmlEscaped()));
    else
        m_proposal->document()->setMarkdown(m_markdown);

    const QString program = c.program();
    m_programHighlighter->setLanguage(CodeHighlighter::guess(program));
    m_program->setPlainText(program.isEmpty() ? tr("This cell has no program.") : program);

    if (parent >= 0) {
        const Cell &p = m_tree->cells().at(parent);
        const QString diff = unifiedDiff(p.program(), program, p.id, c.id);
        m_diff->setPlainText(diff.isEmpty() ? tr("The program is identical to the parent's (%1).").arg(p.id) : diff);
    } else if (const QJsonValue initial = m_tree->meta().payload.value(QLatin1String("initial_program"));
               initial.isString() && !orphan) {
        // An imported run keeps the initial program: attempt 0 is diffed against it.
        const QString diff = unifiedDiff(initial.toString(), program, tr("initial program"), c.id);
        m_diff->setPlainText(diff.isEmpty() ? tr("The program is identical to the initial program.") : diff);
    } else {
        const QString diff = unifiedDiff(QString(), program, tr("root"), c.id);
        m_diff->setPlainText(diff.isEmpty() ? tr("Attempt 0 starts from the root; there is no parent program.") : diff);
    }

    QString output;
    for (const char *k : OutputKeys) {
        const QJsonValue v = c.payload.value(QLatin1String(k));
        if (!v.isUndefined() && !v.isNull())
            output += QStringLiteral("== %1 ==\n%2\n\n").arg(QLatin1String(k), jsonText(v));
    }
    if (c.error)
        output += QStringLiteral("== %1 ==\n%2\n").arg(tr("error"), *c.error);
    if (c.nValid || c.nTotal)
        output += QStringLiteral("\n") + tr("%1 of %2 test cases valid").arg(c.nValid.value_or(0)).arg(c.nTotal.value_or(0)) + QLatin1Char('\n');
    m_output->setPlainText(output.isEmpty() ? tr("The evaluator reported no output for this cell.") : output);

    m_metrics->setSortingEnabled(false);
    m_metrics->setRowCount(0);
    const QJsonObject metrics = c.payload.value(QLatin1String("metrics")).toObject();
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
        const int r = m_metrics->rowCount();
        m_metrics->insertRow(r);
        m_metrics->setItem(r, 0, new QTableWidgetItem(it.key()));
        auto *value = new QTableWidgetItem;
        if (it.value().isDouble())
            value->setData(Qt::DisplayRole, it.value().toDouble());
        else
            value->setText(jsonText(it.value()));
        m_metrics->setItem(r, 1, value);
    }
    m_metrics->setSortingEnabled(true);
    m_metrics->resizeColumnToContents(0);
    showPath();
    showFiles();
}

namespace {

/// A proposal's Markdown as the text it renders to (no `**`, `#` or
/// backticks), its first `lines` non-blank lines joined by newlines.
QString renderedProposalHead(const Cell &cell, int lines)
{
    QTextDocument document;
    document.setMarkdown(cell.proposal());
    return CellPath::headOf(document.toPlainText(), lines);
}

} // namespace

void InspectorWidget::showPath()
{
    const CellPath::Path path = CellPath::to(*m_tree, m_cellIndex);
    m_pathCells.clear();
    m_path->setRowCount(int(path.steps.size()));
    const auto number = [](const std::optional<double> &v, bool sign) -> QString {
        if (!v)
            return QStringLiteral("–");
        return (sign && *v >= 0 ? QStringLiteral("+") : QString()) + QString::number(*v, 'g', 6);
    };
    for (int i = 0; i < int(path.steps.size()); ++i) {
        const CellPath::Step &s = path.steps.at(i);
        const Cell &c = m_tree->cells().at(s.cell);
        const QString head = renderedProposalHead(c, 3);
        const QStringList texts{QString::number(i + 1), c.id, number(s.score, false), number(s.gain, true),
                                head.section(QLatin1Char('\n'), 0, 0)};
        for (int col = 0; col < int(texts.size()); ++col) {
            auto *item = new QTableWidgetItem(texts.at(col));
            if (col == 4)
                item->setToolTip(head);
            m_path->setItem(i, col, item);
        }
        // A gain over a program further up than the parent (the parent failed): which one.
        if (s.gain && s.gainFrom != i - 1) {
            const QString from = s.gainFrom >= 0 ? m_tree->cells().at(path.steps.at(s.gainFrom).cell).id : QString();
            m_path->item(i, 3)->setToolTip(
                from.isEmpty() ? tr("Gain over the initial program's baseline score: no program before it on the path has a score")
                               : tr("Gain over %1, the nearest program before it on the path with a score (its parent has none)").arg(from));
        }
        m_pathCells.append(s.cell);
    }
    m_path->resizeColumnsToContents();
    emit pathChanged(m_pathCells);
}

QString InspectorWidget::fieldsText() const
{
    return m_fields->toPlainText();
}

QString InspectorWidget::proposalMarkdown() const
{
    return m_markdown;
}

QString InspectorWidget::programText() const
{
    return m_program->toPlainText();
}

QString InspectorWidget::diffText() const
{
    return m_diff->toPlainText();
}

int InspectorWidget::metricCount() const
{
    return m_metrics->rowCount();
}

} // namespace dreamrsi
