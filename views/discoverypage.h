#pragma once

#include "model/discoverytree.h"

#include <QWidget>

#include <memory>

class QLabel;
class QLineEdit;

namespace dreamrsi {

class TreeView;

/// The Discovery tab: the tree view with a search field and zoom controls.
class DiscoveryPage final : public QWidget
{
    Q_OBJECT
public:
    explicit DiscoveryPage(QWidget *parent = nullptr);

    void setTree(const QString &title, std::shared_ptr<const DiscoveryTree> tree);
    TreeView *treeView() const { return m_view; }
    QLineEdit *searchEdit() const { return m_search; }

private:
    void runSearch();

    TreeView *m_view = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace dreamrsi
