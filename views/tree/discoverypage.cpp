#include "discoverypage.h"

#include "figures/figuredata.h"
#include "treerenderer.h"
#include "treesummarytext.h"
#include "treeview.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace dreamrsi {

DiscoveryPage::DiscoveryPage(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *row = new QHBoxLayout;
    m_title = new QLabel;
    m_title->setTextFormat(Qt::RichText);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_search = new QLineEdit;
    m_search->setPlaceholderText(tr("Find cells by id or tag"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(220);
    m_search->setMaximumWidth(320);
    m_status = new QLabel;
    row->addWidget(m_title, 1);
    row->addWidget(m_status);
    row->addWidget(m_search);
    layout->addLayout(row);
    m_view = new TreeView;
    layout->addWidget(m_view, 1);
    connect(m_search, &QLineEdit::textChanged, this, &DiscoveryPage::runSearch);
    connect(m_search, &QLineEdit::returnPressed, this, &DiscoveryPage::runSearch);
}

void DiscoveryPage::setTree(const QString &title, std::shared_ptr<const DiscoveryTree> tree)
{
    m_name = title;
    m_title->setText(tree ? QStringLiteral("<b>%1</b> — %2").arg(title.toHtmlEscaped(), TreeSummaryText::of(*tree).toHtmlEscaped())
                          : QString());
    m_view->setTree(std::move(tree));
    runSearch();
}

void DiscoveryPage::runSearch()
{
    const QString text = m_search->text().trimmed();
    const int found = m_view->search(text);
    m_status->setText(text.isEmpty() ? QString() : tr("%n match(es)", nullptr, found));
}

QString DiscoveryPage::figureName() const
{
    return m_name.isEmpty() ? tr("Discovery tree") : m_name;
}

FigureExport::Painter DiscoveryPage::figurePainter()
{
    if (!m_view->tree())
        return {};
    TreeRenderer renderer = m_view->renderer();
    renderer.setPalette(TreePalette::light());
    renderer.setSelected(-1);
    return [renderer](QPainter &p, const QRectF &area) { renderer.paintFigure(p, area); };
}

FigureTable DiscoveryPage::figureData() const
{
    const std::shared_ptr<const DiscoveryTree> tree = m_view->tree();
    return tree ? FigureData::tree(m_name, *tree) : FigureTable{};
}

} // namespace dreamrsi
