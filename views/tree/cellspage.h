#pragma once

#include "model/discoverytree.h"
#include "project/reevaluationstats.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace dreamrsi {

class CellTableModel;

/// The Cells tab: the current world's cells as a sortable, filterable table
/// with a summary line. Owns its model, proxy and widgets.
class CellsPage final : public QWidget
{
    Q_OBJECT
public:
    explicit CellsPage(QWidget *parent = nullptr);

    /// Shows `tree` (or nothing) under `title`; a tree that only grew keeps the table's rows.
    void setTree(const QString &title, std::shared_ptr<const DiscoveryTree> tree);
    /// The shown iteration's re-evaluated cells (docs/online.md#re-evaluating-the-best):
    /// the table's "Mean ± 95 %" column and a summary line naming the best
    /// by recorded score and the best by mean.
    void setReevaluations(const QList<ReevaluationStats> &stats);
    const QList<ReevaluationStats> &reevaluations() const { return m_reevaluations; }
    /// The summary line above the table (rich text).
    QString summaryText() const;
    /// Makes `cellIndex` the current row without emitting cellActivated.
    void selectCell(int cellIndex);
    /// Puts the focus in the filter field.
    void focusFilter();

    CellTableModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QComboBox *filterColumn() const { return m_filterColumn; }

signals:
    /// The user made a cell current (an index into the tree's cells).
    void cellActivated(int cellIndex);

private:
    void applyFilter();
    void updateLabel();

    CellTableModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTableView *m_view = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_filterColumn = nullptr;
    QLabel *m_label = nullptr;
    QString m_title;
    QList<ReevaluationStats> m_reevaluations;
};

} // namespace dreamrsi
