#pragma once

#include "model/discoverytree.h"

#include "figures/figuresource.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;

namespace dreamrsi {

class TreeView;

/// The Discovery tab: the tree view with a search field and zoom controls.
class DiscoveryPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    explicit DiscoveryPage(QWidget *parent = nullptr);

    void setTree(const QString &title, std::shared_ptr<const DiscoveryTree> tree);
    TreeView *treeView() const { return m_view; }
    QLineEdit *searchEdit() const { return m_search; }

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;

private:
    void runSearch();

    TreeView *m_view = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_title = nullptr;
    QString m_name; ///< the tree's title, the figure's name
    QLabel *m_status = nullptr;
};

} // namespace dreamrsi
