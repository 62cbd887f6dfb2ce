#include "userguidedialog.h"

#include "eval/taskregistry.h"

#include <QCoreApplication>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QImage>
#include <QPixmap>
#include <QPushButton>
#include <QResizeEvent>
#include <QStyle>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

#include <algorithm>

namespace dreamrsi {

namespace {

/// The guide's browser: an image wider than the page is drawn at the page's
/// width (its height in proportion), again whenever the page's width
/// changes; a narrower one at its own size. The screenshots are wider than
/// the dialog.
class GuideBrowser final : public QTextBrowser
{
public:
    GuideBrowser()
    {
        connect(this, &QTextBrowser::sourceChanged, this, &GuideBrowser::fitImages);
    }

protected:
    void resizeEvent(QResizeEvent *event) override
    {
        QTextBrowser::resizeEvent(event);
        if (event->size().width() != event->oldSize().width())
            fitImages();
    }

private:
    /// The image's own size, kept in its format once read.
    static constexpr int NaturalWidth = QTextFormat::UserProperty + 1;
    static constexpr int NaturalHeight = QTextFormat::UserProperty + 2;

    QSizeF naturalSize(const QTextImageFormat &format) const
    {
        if (format.hasProperty(NaturalWidth))
            return {format.doubleProperty(NaturalWidth), format.doubleProperty(NaturalHeight)};
        // Loaded once by the document (QTextBrowser::loadResource) and kept there.
        const QVariant data = document()->resource(QTextDocument::ImageResource, QUrl(format.name()));
        QImage image;
        if (data.userType() == QMetaType::QImage)
            image = data.value<QImage>();
        else if (data.userType() == QMetaType::QPixmap)
            image = data.value<QPixmap>().toImage();
        else if (data.userType() == QMetaType::QByteArray)
            image.loadFromData(data.toByteArray());
        return image.isNull() ? QSizeF() : image.deviceIndependentSize();
    }

    void fitImages()
    {
        const qreal available = viewport()->width() - 2 * document()->documentMargin() - 2;
        if (available <= 0)
            return;
        // The images' fragments first: setting a format may merge fragments.
        QList<std::pair<QTextFragment, QTextImageFormat>> images;
        for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
            for (auto it = block.begin(); !it.atEnd(); ++it) {
                const QTextFragment fragment = it.fragment();
                if (fragment.isValid() && fragment.charFormat().isImageFormat())
                    images.append({fragment, fragment.charFormat().toImageFormat()});
            }
        }
        QTextCursor cursor(document());
        for (auto &[fragment, format] : images) {
            const QSizeF natural = naturalSize(format);
            if (natural.isEmpty())
                continue;
            const qreal width = std::min(natural.width(), available);
            if (format.hasProperty(NaturalWidth) && format.width() == width)
                continue;
            format.setProperty(NaturalWidth, natural.width());
            format.setProperty(NaturalHeight, natural.height());
            format.setWidth(width);
            format.setHeight(natural.height() * width / natural.width());
            cursor.setPosition(fragment.position());
            cursor.setPosition(fragment.position() + fragment.length(), QTextCursor::KeepAnchor);
            cursor.setCharFormat(format);
        }
    }
};

} // namespace

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
    m_browser = new GuideBrowser;
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
