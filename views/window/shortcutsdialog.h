#pragma once

#include <QDialog>

class QMenuBar;

namespace dreamrsi {

/// Help ▸ Keyboard Shortcuts ("shortcutsDialog"): every action of `menus`
/// that has a shortcut, menu by menu, and the tree view's own keys, in one
/// table ("shortcutsTable").
class ShortcutsDialog final : public QDialog
{
    Q_OBJECT
public:
    ShortcutsDialog(QMenuBar *menus, QWidget *parent = nullptr);
};

} // namespace dreamrsi
