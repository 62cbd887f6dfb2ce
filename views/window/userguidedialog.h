#pragma once

#include <QDialog>
#include <QUrl>

class QTextBrowser;

namespace dreamrsi {

/// Help ▸ User Guide: the README and docs/ rendered inside the application
/// (Markdown in a QTextBrowser), links between the guide's pages followed in
/// place, web links handed to the desktop's browser. The pages are the
/// installed ones (share/doc/dreamrsi-workbench, with the screenshots) when
/// they are there, else the copy compiled into the application (text only).
class UserGuideDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget *parent = nullptr);

    QTextBrowser *browser() const { return m_browser; }
    /// The README the guide starts at: the installed one (or the source
    /// tree's in a build, $DREAMRSI_DOC_DIR first), else qrc:/guide/README.md.
    static QUrl homePage();
    /// The installed README.md beside docs/, empty when none is found.
    static QString installedReadme();

private:
    QTextBrowser *m_browser = nullptr;
};

} // namespace dreamrsi
