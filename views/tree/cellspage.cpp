#include "cellspage.h"

#include "models/celltablemodel.h"
#include "models/reevaluationsummary.h"
#include "models/treesummarytext.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace dreamrsi {

CellsPage::CellsPage(QWidget *parent)
    : QWidget(parent)
{
    m_model = new CellTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(CellTableModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *filterRow = new QHBoxLayout;
    m_label = new QLabel;
    m_label->setWordWrap(true);
    m_filterEdit = new QLineEdit;
    m_filterEdit->setPlaceholderText(tr("Filter cells (id, tag, outcome, error…)"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterColumn = new QComboBox;
    m_filterColumn->addItem(tr("All columns"), -1);
    for (int c = 0; c < CellTableModel::ColumnCount; ++c)
        m_filterColumn->addItem(m_model->headerData(c, Qt::Horizontal).toString(), c);
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_filterColumn);
    layout->addWidget(m_label);
    layout->addLayout(filterRow);
    m_view = new QTableView;
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(CellTableModel::Seq, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    // One line per cell: a column too narrow elides its text, it does not wrap.
    m_view->setWordWrap(false);
    m_view->setTextElideMode(Qt::ElideRight);
    layout->addWidget(m_view, 1);
    connect(m_filterEdit, &QLineEdit::textChanged, this, &CellsPage::applyFilter);
    connect(m_filterColumn, &QComboBox::currentIndexChanged, this, &CellsPage::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid())
            emit cellActivated(m_proxy->mapToSource(current).row());
    });
    setTree(QString(), nullptr);
}

void CellsPage::setTree(const QString &title, std::shared_ptr<const DiscoveryTree> tree)
{
    m_title = title;
    if (!tree && m_model->tree())
        m_model->setTree(nullptr);
    if (!tree || m_model->tree() == tree) {
        updateLabel();
        return;
    }
    // A tree that only grew (a live round) keeps its rows: same cells first, more after.
    const auto old = m_model->tree();
    bool grew = old && old->cellCount() > 0 && tree->cellCount() > old->cellCount();
    for (int i = 0; grew && i < old->cellCount(); ++i)
        grew = old->cells().at(i).id == tree->cells().at(i).id;
    if (grew) {
        m_model->growTo(std::move(tree));
    } else {
        m_model->setTree(std::move(tree));
        m_view->resizeColumnsToContents();
    }
    updateLabel();
}

void CellsPage::setReevaluations(const QList<ReevaluationStats> &stats)
{
    m_reevaluations = stats;
    m_model->setReevaluations(stats);
    // The column was sized while it was empty: "0.81 ± 0.04 ⚠" on one line.
    if (!stats.isEmpty())
        m_view->resizeColumnToContents(CellTableModel::Reevaluated);
    updateLabel();
}

void CellsPage::updateLabel()
{
    const auto tree = m_model->tree();
    if (!tree) {
        m_label->setText(tr("No tree open. Open a tree file (Ctrl+O) or drop one here."));
        return;
    }
    QString text = QStringLiteral("<b>%1</b> — %2").arg(m_title.toHtmlEscaped(), TreeSummaryText::of(*tree).toHtmlEscaped());
    if (const QString best = ReevaluationSummary::best(m_reevaluations); !best.isEmpty())
        text += QStringLiteral("<br>") + best.toHtmlEscaped();
    m_label->setText(text);
}

QString CellsPage::summaryText() const
{
    return m_label->text();
}

void CellsPage::selectCell(int cellIndex)
{
    const QModelIndex proxy = m_proxy->mapFromSource(m_model->index(cellIndex, 0));
    if (proxy.isValid() && m_view->currentIndex().row() != proxy.row()) {
        const QSignalBlocker blocker(m_view->selectionModel());
        m_view->setCurrentIndex(proxy);
        m_view->scrollTo(proxy);
    }
}

void CellsPage::focusFilter()
{
    m_filterEdit->setFocus();
    m_filterEdit->selectAll();
}

void CellsPage::applyFilter()
{
    m_proxy->setFilterKeyColumn(m_filterColumn->currentData().toInt());
    m_proxy->setFilterFixedString(m_filterEdit->text());
}

} // namespace dreamrsi
