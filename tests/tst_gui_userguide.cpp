// Help ▸ User Guide (issue 53): an image wider than the viewer is drawn at
// the viewer's width, its height in proportion, again when the viewer's
// width changes; a narrower one at its own size.
#include "window/userguidedialog.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QtTest>

using namespace dreamrsi;

namespace {

/// The images of the shown page by name: the size they are drawn at.
QHash<QString, QSizeF> drawnImages(const QTextBrowser *browser)
{
    QHash<QString, QSizeF> sizes;
    for (QTextBlock block = browser->document()->begin(); block.isValid(); block = block.next()) {
        for (auto it = block.begin(); !it.atEnd(); ++it) {
            const QTextCharFormat format = it.fragment().charFormat();
            if (format.isImageFormat()) {
                const QTextImageFormat image = format.toImageFormat();
                sizes.insert(QFileInfo(image.name()).fileName(), QSizeF(image.width(), image.height()));
            }
        }
    }
    return sizes;
}

} // namespace

class TestGuiUserGuide : public QObject
{
    Q_OBJECT
private slots:
    void imagesFitTheViewer();
};

void TestGuiUserGuide::imagesFitTheViewer()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("docs/screenshots")));
    QImage wide(2400, 300, QImage::Format_RGB32);
    wide.fill(Qt::darkBlue);
    QVERIFY(wide.save(dir.filePath(QStringLiteral("docs/screenshots/wide.png"))));
    QImage small(120, 60, QImage::Format_RGB32);
    small.fill(Qt::darkGreen);
    QVERIFY(small.save(dir.filePath(QStringLiteral("docs/screenshots/small.png"))));
    QFile readme(dir.filePath(QStringLiteral("README.md")));
    QVERIFY(readme.open(QIODevice::WriteOnly));
    readme.write("Dream-RSI Workbench\n===\n\n![The window](docs/screenshots/wide.png)\n\nText.\n\n"
                 "![An icon](docs/screenshots/small.png)\n");
    readme.close();
    qputenv("DREAMRSI_DOC_DIR", dir.path().toUtf8());
    QCOMPARE(UserGuideDialog::homePage(), QUrl::fromLocalFile(QFileInfo(readme.fileName()).canonicalFilePath()));

    UserGuideDialog dialog;
    dialog.resize(860, 700);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QTextBrowser *browser = dialog.browser();
    const auto fits = [browser] {
        const QHash<QString, QSizeF> sizes = drawnImages(browser);
        const QSizeF w = sizes.value(QStringLiteral("wide.png"));
        return w.width() > 0 && w.width() <= browser->viewport()->width()
               && w.width() >= browser->viewport()->width() - 2 * browser->document()->documentMargin() - 4;
    };
    QTRY_VERIFY(fits());
    QHash<QString, QSizeF> sizes = drawnImages(browser);
    QCOMPARE(sizes.size(), 2);
    const QSizeF drawn = sizes.value(QStringLiteral("wide.png"));
    QVERIFY2(drawn.width() < 860, qPrintable(QString::number(drawn.width())));
    QVERIFY(qAbs(drawn.height() - drawn.width() * 300.0 / 2400.0) < 1.0); // in proportion
    QCOMPARE(sizes.value(QStringLiteral("small.png")), QSizeF(120, 60)); // at its own size
    // The whole page fits the width: no horizontal scrolling.
    QVERIFY(browser->document()->size().width() <= browser->viewport()->width() + 1);

    // Narrower and wider: the image follows, never past its own width.
    dialog.resize(500, 700);
    QTRY_VERIFY(fits());
    QVERIFY(drawnImages(browser).value(QStringLiteral("wide.png")).width() < drawn.width());
    dialog.resize(1500, 700);
    QTRY_VERIFY(fits());
    QVERIFY(drawnImages(browser).value(QStringLiteral("wide.png")).width() > drawn.width());
    QCOMPARE(drawnImages(browser).value(QStringLiteral("small.png")), QSizeF(120, 60));
}

QTEST_MAIN(TestGuiUserGuide)
#include "tst_gui_userguide.moc"
