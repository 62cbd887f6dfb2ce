#include "shortcutsdialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

#include <functional>

namespace dreamrsi {

ShortcutsDialog::ShortcutsDialog(QMenuBar *menus, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto *table = new QTableWidget(this);
    table->setObjectName(QStringLiteral("shortcutsTable"));
    table->setColumnCount(3);
    table->setHorizontalHeaderLabels({tr("Menu"), tr("Action"), tr("Shortcut")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    // Every action of the menu bar that has a shortcut, menu by menu.
    QList<QStringList> rows;
    QSet<QAction *> seen;
    std::function<void(QMenu *, const QString &)> collect = [&](QMenu *menu, const QString &title) {
        for (QAction *a : menu->actions()) {
            if (a->menu()) {
                collect(a->menu(), title);
                continue;
            }
            if (a->isSeparator() || a->shortcuts().isEmpty() || seen.contains(a))
                continue;
            seen.insert(a);
            QStringList keys;
            for (const QKeySequence &k : a->shortcuts())
                keys.append(k.toString(QKeySequence::NativeText));
            rows.append({title, a->text().remove(QLatin1Char('&')).remove(QChar(0x2026)), keys.join(QStringLiteral(", "))});
        }
    };
    for (QAction *top : menus->actions()) {
        if (top->menu())
            collect(top->menu(), top->text().remove(QLatin1Char('&')));
    }
    // The tree view's own keys, which no menu lists.
    rows.append({tr("Tree view"), tr("Fit the tree to the view"), QStringLiteral("F")});
    rows.append({tr("Tree view"), tr("Zoom in, zoom out"), QStringLiteral("+, -")});
    table->setRowCount(int(rows.size()));
    for (int r = 0; r < rows.size(); ++r) {
        for (int c = 0; c < 3; ++c)
            table->setItem(r, c, new QTableWidgetItem(rows.at(r).at(c)));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(table);
    layout->addWidget(buttons);
    resize(560, 520);
}

} // namespace dreamrsi
