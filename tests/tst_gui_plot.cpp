// `dreamrsi plot`: headless figures from tree files, in every format, with
// the requested size; usage errors.
#include "commands.h"

#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

using namespace dreamrsi;

class TestPlotCommand : public QObject
{
    Q_OBJECT

    static QString demo(const char *name) { return QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/") + QLatin1String(name); }

    int run(const QStringList &args, QString *errText = nullptr)
    {
        QString o, e;
        QTextStream out(&o), err(&e);
        const int rc = runPlotCommand(args, out, err);
        err.flush();
        if (errText)
            *errText = e;
        return rc;
    }

private slots:
    void figures_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("suffix");
        for (const char *kind : {"tree", "frontier", "anytime"}) {
            for (const char *suffix : {"png", "pdf", "svg"})
                QTest::addRow("%s-%s", kind, suffix) << QString::fromLatin1(kind) << QString::fromLatin1(suffix);
        }
    }

    void figures()
    {
        QFETCH(QString, kind);
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString out = dir.filePath(kind + QLatin1Char('.') + suffix);
        QString err;
        const int rc = run({kind, QStringLiteral("--world"), demo("c3-iter1.json"), QStringLiteral("--versions"),
                            QStringLiteral("builtin:portfolio,builtin:parallel_refine"), QStringLiteral("--width-mm"),
                            QStringLiteral("120"), QStringLiteral("--height-mm"), QStringLiteral("80"), QStringLiteral("--dpi"),
                            QStringLiteral("150"), QStringLiteral("--out"), out},
                           &err);
        QVERIFY2(rc == 0, qPrintable(err));
        QVERIFY(QFileInfo(out).size() > 1000);
        if (suffix == QLatin1String("png")) {
            const QImage image(out);
            QCOMPARE(image.size(), QSize(709, 472)); // 120 x 80 mm at 150 dpi
            QCOMPARE(image.pixelColor(1, 1), QColor(Qt::white)); // paper background
        }
    }

    void frontierMeanOverWorlds()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("mean.svg"));
        QString err;
        QCOMPARE(run({QStringLiteral("frontier"), QStringLiteral("--world"), demo("c3-iter1.json"), QStringLiteral("--world"),
                      demo("circle-packing-iter1.json"), QStringLiteral("--out"), out},
                     &err),
                 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QVERIFY(svg.contains("builtin:portfolio")); // legend text stays text
        QVERIFY(svg.contains("fraction of the tree"));
    }

    void usageErrors()
    {
        QTemporaryDir dir;
        QCOMPARE(run({}), 2);
        QCOMPARE(run({QStringLiteral("pie"), QStringLiteral("--world"), demo("c3-iter1.json"), QStringLiteral("--out"), dir.filePath(QStringLiteral("x.pdf"))}), 2);
        QCOMPARE(run({QStringLiteral("tree"), QStringLiteral("--world"), demo("c3-iter1.json")}), 2);
        QCOMPARE(run({QStringLiteral("tree"), QStringLiteral("--world"), demo("c3-iter1.json"), QStringLiteral("--out"), dir.filePath(QStringLiteral("x.gif"))}), 2);
        QString err;
        QCOMPARE(run({QStringLiteral("tree"), QStringLiteral("--world"), dir.filePath(QStringLiteral("missing.json")), QStringLiteral("--out"),
                      dir.filePath(QStringLiteral("x.pdf"))},
                     &err),
                 1);
        QVERIFY(!err.isEmpty());
        QCOMPARE(run({QStringLiteral("tree"), QStringLiteral("--world"), demo("c3-iter1.json"), QStringLiteral("--select"),
                      QStringLiteral("nope"), QStringLiteral("--out"), dir.filePath(QStringLiteral("x.pdf"))}),
                 1);
    }
};

QTEST_MAIN(TestPlotCommand)
#include "tst_gui_plot.moc"
