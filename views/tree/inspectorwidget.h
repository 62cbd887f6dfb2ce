#pragma once

#include "model/discoverytree.h"

#include <QWidget>

#include <memory>

class QPlainTextEdit;
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
    enum Page { FieldsPage, ProposalPage, ProgramPage, DiffPage, OutputPage, MetricsPage };

    explicit InspectorWidget(QWidget *parent = nullptr);

    /// Shows a cell; an imagined one (an imagined completion's) says so,
    /// with `imaginedOrigin` telling where its draw came from.
    void showCell(std::shared_ptr<const DiscoveryTree> tree, int cellIndex, const QString &imaginedOrigin = {});
    /// The Fields page as plain text.
    QString fieldsText() const;
    void clear();
    void setDark(bool dark);

    int cellIndex() const { return m_cellIndex; }
    QTabWidget *pages() const { return m_pages; }
    QString proposalMarkdown() const;
    QString programText() const;
    QString diffText() const;
    int metricCount() const;

private:
    std::shared_ptr<const DiscoveryTree> m_tree;
    int m_cellIndex = -1;
    QTabWidget *m_pages = nullptr;
    QTextBrowser *m_fields = nullptr;
    QTextBrowser *m_proposal = nullptr;
    QPlainTextEdit *m_program = nullptr;
    QPlainTextEdit *m_diff = nullptr;
    QPlainTextEdit *m_output = nullptr;
    QTableWidget *m_metrics = nullptr;
    CodeHighlighter *m_programHighlighter = nullptr;
    CodeHighlighter *m_diffHighlighter = nullptr;
    QString m_markdown;
};

} // namespace dreamrsi
