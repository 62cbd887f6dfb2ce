#pragma once

#include "model/discoverytree.h"
#include "project/reevaluationstats.h"
#include "store/storetypes.h"

#include <QWidget>

#include <memory>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace dreamrsi {

class CodeHighlighter;

/// Everything about one cell: its fields, the proposal (Markdown), the
/// program with highlighting, a unified diff against the parent attempt,
/// the evaluator's output and the metrics.
class InspectorWidget final : public QWidget
{
    Q_OBJECT
public:
    enum Page { FieldsPage, ProposalPage, ProgramPage, DiffPage, OutputPage, MetricsPage, PathPage, FilesPage };

    explicit InspectorWidget(QWidget *parent = nullptr);

    /// Shows a cell; an imagined one (an imagined completion's) says so,
    /// with `imaginedOrigin` telling where its draw came from.
    void showCell(std::shared_ptr<const DiscoveryTree> tree, int cellIndex, const QString &imaginedOrigin = {});
    /// The Fields page as plain text.
    QString fieldsText() const;
    void clear();
    void setDark(bool dark);

    int cellIndex() const { return m_cellIndex; }
    /// The tree of the cell shown; none when nothing is shown.
    const std::shared_ptr<const DiscoveryTree> &tree() const { return m_tree; }
    QTabWidget *pages() const { return m_pages; }
    QString proposalMarkdown() const;
    QString programText() const;
    QString diffText() const;
    int metricCount() const;
    /// The Path page's steps (docs/compare.md#the-path-to-the-best): cell
    /// indices from the first after the initial program to the cell shown.
    const QList<int> &pathCells() const { return m_pathCells; }
    QTableWidget *pathTable() const { return m_path; }
    /// Shows the cell's re-evaluations (docs/online.md#re-evaluating-the-best):
    /// repeats, failed, mean ± half-width of the 95 % interval, sd, lucky; none: never re-evaluated.
    /// The cell's re-evaluation; `best` names the iteration's best re-evaluated
    /// cells, said when this cell is one of them and the other differs.
    void setReevaluation(const std::optional<ReevaluationStats> &stats, const ReevaluationBest &best = {});
    /// Whether the shown cell can be re-evaluated (a project's stored cell, not an imagined one).
    void setReevaluationEnabled(bool enabled);
    QString reevaluationText() const;
    QPushButton *reevaluateButton() const { return m_reevaluate; }
    /// The Files page (a served project's cell, docs/remote.md#in-the-workbench-file--connect-to-server):
    /// the files the cell refers to, fetched when the cell is shown, and the
    /// one selected, fetched by its hash; both kept by the remote session.
    /// The page is shown only for a cell of a served project's world.
    QListWidget *filesList() const { return m_files; }
    /// The selected file's text as shown (or why not, or that it is binary).
    QString fileText() const;

signals:
    /// A step of the Path page was clicked: select that cell on the tree.
    void pathStepActivated(int cellIndex);
    /// The path shown changed (empty when none), to highlight on the tree.
    void pathChanged(const QList<int> &cells);
    /// Re-evaluate… was clicked for the cell shown.
    void reevaluateRequested(int cellIndex);

private:
    void showPath();
    void showFiles();
    void showFile(int row);

    std::shared_ptr<const DiscoveryTree> m_tree;
    int m_cellIndex = -1;
    QTabWidget *m_pages = nullptr;
    QTextBrowser *m_fields = nullptr;
    QTextBrowser *m_proposal = nullptr;
    QPlainTextEdit *m_program = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QPlainTextEdit *m_output = nullptr;
    QTableWidget *m_metrics = nullptr;
    QTableWidget *m_path = nullptr;
    QList<int> m_pathCells;
    CodeHighlighter *m_programHighlighter = nullptr;
    CodeHighlighter *m_diffHighlighter = nullptr;
    QString m_markdown;
    QLabel *m_reevaluation = nullptr;
    QPushButton *m_reevaluate = nullptr;
    QListWidget *m_files = nullptr;
    QPlainTextEdit *m_fileText = nullptr;
    QList<ArtifactRef> m_fileRefs;
    quint64 m_filesEpoch = 0; ///< the cell shown: answers for an earlier one are dropped
};

} // namespace dreamrsi
