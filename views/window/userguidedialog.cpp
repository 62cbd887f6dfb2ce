#include "userguidedialog.h"

#include "eval/taskregistry.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QPushButton>
#include <QStyle>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace dreamrsi {

QString UserGuideDialog::installedReadme()
{
    // Installed beside the executable's prefix; in a build, the source tree's
    // (the evaluators' folder sits in it); $DREAMRSI_DOC_DIR first.
    QStringList folders;
    if (const QString fromEnv = qEnvironmentVariable("DREAMRSI_DOC_DIR"); !fromEnv.isEmpty())
        folders << fromEnv;
    folders << QCoreApplication::applicationDirPath() + QStringLiteral("/../share/doc/dreamrsi-workbench");
    if (const QString evaluators = TaskRegistry::evaluatorsRoot(); !evaluators.isEmpty())
        folders << evaluators + QStringLiteral("/..");
    for (const QString &folder : std::as_const(folders)) {
        const QFileInfo readme(folder + QStringLiteral("/README.md"));
        if (readme.isFile() && QFileInfo(folder + QStringLiteral("/docs")).isDir())
            return readme.canonicalFilePath();
    }
    return {};
}

QUrl UserGuideDialog::homePage()
{
    const QString installed = installedReadme();
    return installed.isEmpty() ? QUrl(QStringLiteral("qrc:/guide/README.md")) : QUrl::fromLocalFile(installed);
}

UserGuideDialog::UserGuideDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("userGuideDialog"));
    setWindowTitle(tr("User Guide"));
    m_browser = new QTextBrowser;
    m_browser->setObjectName(QStringLiteral("userGuideBrowser"));
    m_browser->setOpenLinks(true);
    m_browser->setOpenExternalLinks(false);
    // Pages of the guide open here; anything else (the web) in the desktop's browser.
    connect(m_browser, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")
            && url.scheme() != QLatin1String("mailto"))
            return;
        QDesktopServices::openUrl(url);
        m_browser->backward(); // the browser followed it to an empty page
    });

    auto *back = new QPushButton(style()->standardIcon(QStyle::SP_ArrowBack), tr("&Back"));
    auto *forward = new QPushButton(style()->standardIcon(QStyle::SP_ArrowForward), tr("&Forward"));
    auto *home = new QPushButton(tr("&Contents"));
    home->setToolTip(tr("Back to the README, the guide's first page"));
    back->setEnabled(false);
    forward->setEnabled(false);
    connect(back, &QPushButton::clicked, m_browser, &QTextBrowser::backward);
    connect(forward, &QPushButton::clicked, m_browser, &QTextBrowser::forward);
    connect(home, &QPushButton::clicked, m_browser, &QTextBrowser::home);
    connect(m_browser, &QTextBrowser::backwardAvailable, back, &QPushButton::setEnabled);
    connect(m_browser, &QTextBrowser::forwardAvailable, forward, &QPushButton::setEnabled);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *navigation = new QHBoxLayout;
    navigation->addWidget(back);
    navigation->addWidget(forward);
    navigation->addWidget(home);
    navigation->addStretch(1);
    navigation->addWidget(buttons);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_browser, 1);
    layout->addLayout(navigation);

    m_browser->setSource(homePage(), QTextDocument::MarkdownResource);
    resize(860, 700);
}

} // namespace dreamrsi
