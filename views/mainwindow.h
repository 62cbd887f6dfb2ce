#pragma once

#include "model/discoverytree.h"

#include <QMainWindow>

#include <memory>

class QLabel;
class QLineEdit;
class QComboBox;
class QListWidget;
class QMenu;
class QSortFilterProxyModel;
class QTableView;
class QTabWidget;
class QTextBrowser;

namespace dreamrsi {

class CellTableModel;

/// The workbench's main window: opens tree files (dialog, command line,
/// drag-and-drop, recent files), lists the open worlds in a dock and shows the
/// cells of the current one in a sortable, filterable table.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /// Starts loading the files off the GUI thread; treeOpened / openFailed follow.
    void openFiles(const QStringList &paths);

    int openTreeCount() const { return int(m_trees.size()); }
    std::shared_ptr<const DiscoveryTree> currentTree() const;
    QSortFilterProxyModel *cellProxyModel() const { return m_proxy; }
    CellTableModel *cellModel() const { return m_cellModel; }
    QLineEdit *filterEdit() const { return m_filterEdit; }
    QStringList recentFiles() const;

signals:
    void treeOpened(const QString &path);
    void openFailed(const QString &path, const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    struct OpenTree
    {
        QString path;
        std::shared_ptr<const DiscoveryTree> tree;
    };

    void createActions();
    void createDocks();
    void addTree(const QString &path, std::shared_ptr<const DiscoveryTree> tree);
    void showTree(int row);
    void showCell(const QModelIndex &proxyIndex);
    void closeCurrentTree();
    void addRecentFile(const QString &path);
    void rebuildRecentMenu();
    void updateActions();
    void applyFilter();

    QList<OpenTree> m_trees;
    QTabWidget *m_tabs = nullptr;
    QListWidget *m_worldList = nullptr;
    QTextBrowser *m_inspector = nullptr;
    QTableView *m_cellView = nullptr;
    CellTableModel *m_cellModel = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QLineEdit *m_filterEdit = nullptr;
    QComboBox *m_filterColumn = nullptr;
    QLabel *m_treeLabel = nullptr;
    QMenu *m_recentMenu = nullptr;
    QAction *m_closeAction = nullptr;
    int m_pendingLoads = 0;
};

} // namespace dreamrsi
