// The inspector and its parts: unified diff (dtl), syntax guessing, Markdown
// proposal, metrics, evaluator output; figure export sizes.
#include "figures/figureexport.h"
#include "model/treejson.h"
#include "tree/codehighlighter.h"
#include "tree/inspectorwidget.h"
#include "tree/unifieddiff.h"

#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QPainter>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

using namespace dreamrsi;

class TestInspector : public QObject
{
    Q_OBJECT
private slots:
    void diffOfChangedLine()
    {
        const QString a = QStringLiteral("a\nb\nc\nd\ne\nf\ng\n");
        const QString b = QStringLiteral("a\nb\nc\nD\ne\nf\ng\nh\n");
        const QString diff = unifiedDiff(a, b, QStringLiteral("old"), QStringLiteral("new"));
        const QStringList lines = diff.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.at(0), QStringLiteral("--- old"));
        QCOMPARE(lines.at(1), QStringLiteral("+++ new"));
        QVERIFY(lines.at(2).startsWith(QLatin1String("@@ -")));
        QVERIFY(lines.contains(QStringLiteral("-d")));
        QVERIFY(lines.contains(QStringLiteral("+D")));
        QVERIFY(lines.contains(QStringLiteral("+h")));
        QVERIFY(lines.contains(QStringLiteral(" c")));
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^[-+][^-+]"))).size(), 3);
        QVERIFY(unifiedDiff(a, a, QStringLiteral("x"), QStringLiteral("y")).isEmpty());
        // Removing lines (the longer text first) keeps the direction right.
        const QString shrink = unifiedDiff(b, a, QStringLiteral("new"), QStringLiteral("old"));
        QVERIFY(shrink.contains(QLatin1String("\n-h\n")));
        QVERIFY(shrink.contains(QLatin1String("\n+d\n")));
        const QString fromNothing = unifiedDiff(QString(), QStringLiteral("x\ny\n"), QStringLiteral("root"), QStringLiteral("c"));
        QVERIFY(fromNothing.contains(QLatin1String("\n+x\n+y\n")));
    }

    void guessesLanguages()
    {
        QCOMPARE(CodeHighlighter::guess(QStringLiteral("import numpy as np\ndef f():\n  pass")), CodeHighlighter::Language::Python);
        QCOMPARE(CodeHighlighter::guess(QStringLiteral("#include <vector>\nint main() {}")), CodeHighlighter::Language::Cpp);
        QCOMPARE(CodeHighlighter::guess(QStringLiteral("function selectBatch(state) { return []; }")),
                 CodeHighlighter::Language::JavaScript);
        QCOMPARE(CodeHighlighter::guess(QStringLiteral("--- a\n+++ b\n@@ -1 +1 @@")), CodeHighlighter::Language::Diff);
    }

    void highlightsKeywords()
    {
        QTextDocument doc;
        doc.setPlainText(QStringLiteral("def f(x):\n    return x  # done\n"));
        CodeHighlighter h(&doc, CodeHighlighter::Language::Python);
        h.rehighlight();
        const QTextBlock first = doc.firstBlock();
        const auto formats = first.layout()->formats();
        bool keyword = false;
        for (const auto &f : formats)
            keyword = keyword || (f.start == 0 && f.length == 3 && f.format.fontWeight() == QFont::Bold);
        QVERIFY(keyword);
        bool comment = false;
        for (const auto &f : first.next().layout()->formats())
            comment = comment || f.format.fontItalic();
        QVERIFY(comment);
    }

    void showsCell()
    {
        auto parsed = TreeJson::readFile(QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/circle-packing-iter1.json"));
        QVERIFY(parsed.ok());
        auto tree = std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
        InspectorWidget w;
        // A refinement: its diff is against attempt 0 of the same branch.
        const int cell = tree->indexOf(4, 3);
        QVERIFY(cell >= 0);
        w.showCell(tree, cell);
        QCOMPARE(w.cellIndex(), cell);
        const Cell &c = tree->cells().at(cell);
        QCOMPARE(w.proposalMarkdown(), c.proposal());
        QCOMPARE(w.programText(), c.program());
        const QString parentId = tree->cells().at(tree->parentIndex(cell)).id;
        QVERIFY2(w.diffText().startsWith(QStringLiteral("--- ") + parentId), qPrintable(w.diffText().left(80)));
        QCOMPARE(w.metricCount(), c.payload.value(QStringLiteral("metrics")).toObject().size());
        // Payload objects of plain values read as a line per key, not as JSON.
        auto *fields = qobject_cast<QTextBrowser *>(w.pages()->widget(InspectorWidget::FieldsPage));
        const QJsonObject agent = c.payload.value(QStringLiteral("agent")).toObject();
        QVERIFY(!agent.isEmpty());
        const QString shown = fields->toPlainText();
        QVERIFY2(!shown.contains(QLatin1Char('{')), qPrintable(shown));
        for (auto it = agent.constBegin(); it != agent.constEnd(); ++it) {
            const QString value = it.value().isDouble() ? QString::number(it.value().toDouble(), 'g', 6) : it.value().toString();
            // Key and value on a line of their own.
            const QRegularExpression line(QLatin1Char('^') + QRegularExpression::escape(it.key()) + QStringLiteral("\\s+")
                                              + QRegularExpression::escape(value) + QLatin1Char('$'),
                                          QRegularExpression::MultilineOption);
            QVERIFY2(line.match(shown).hasMatch(), qPrintable(it.key() + QStringLiteral(" in\n") + shown));
        }
        // Markdown is rendered: the bold "Direction" is not shown with its asterisks.
        auto *proposal = qobject_cast<QTextBrowser *>(w.pages()->widget(InspectorWidget::ProposalPage));
        QVERIFY(!proposal->toPlainText().contains(QLatin1String("**")));
        QVERIFY(proposal->toPlainText().contains(QLatin1String("Direction")));
        // A failed cell shows its error in the output page.
        for (int i = 0; i < tree->cellCount(); ++i) {
            if (tree->cells().at(i).error) {
                w.showCell(tree, i);
                auto *output = qobject_cast<QPlainTextEdit *>(w.pages()->widget(InspectorWidget::OutputPage));
                QVERIFY(output->toPlainText().contains(*tree->cells().at(i).error));
                break;
            }
        }
        w.clear();
        QCOMPARE(w.cellIndex(), -1);
    }

    void exportSizes_data()
    {
        QTest::addColumn<QString>("suffix");
        QTest::addRow("png") << QStringLiteral("png");
        QTest::addRow("pdf") << QStringLiteral("pdf");
        QTest::addRow("svg") << QStringLiteral("svg");
    }

    void exportSizes()
    {
        QFETCH(QString, suffix);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("fig.") + suffix);
        FigureExport::Options o;
        o.sizeMm = QSizeF(100, 50);
        o.dpi = 200;
        QSizeF seen;
        const Result<Done> written = FigureExport::write(path, o, [&seen](QPainter &p, const QRectF &area) {
            seen = area.size();
            p.fillRect(area.adjusted(10, 10, -10, -10), QColor(0x21, 0x91, 0x8c));
            p.drawText(area, Qt::AlignCenter, QStringLiteral("Dream-RSI"));
        });
        QVERIFY2(written, qPrintable(written.error));
        QVERIFY(QFileInfo(path).size() > 200);
        // The painter always sees the logical canvas: 1/96 inch units.
        QCOMPARE(seen.toSize(), QSize(378, 189));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        if (suffix == QLatin1String("png")) {
            const QImage image(path);
            QCOMPARE(image.size(), QSize(787, 394)); // 100 mm and 50 mm at 200 dpi
            QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 200);
            QCOMPARE(image.pixelColor(400, 100), QColor(0x21, 0x91, 0x8c));
            QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white));
        } else if (suffix == QLatin1String("pdf")) {
            QVERIFY(bytes.startsWith("%PDF"));
            // 100 x 50 mm = 283.46 x 141.73 pt.
            const QRegularExpression box(QStringLiteral("MediaBox \\[0 0 ([0-9.]+) ([0-9.]+)\\]"));
            const auto m = box.match(QString::fromLatin1(bytes));
            QVERIFY(m.hasMatch());
            QVERIFY(qAbs(m.captured(1).toDouble() - 283.46) < 1.0);
            QVERIFY(qAbs(m.captured(2).toDouble() - 141.73) < 1.0);
        } else {
            QVERIFY(bytes.contains("<svg"));
            QVERIFY(bytes.contains("width=\"100") || bytes.contains("width=\"99."));
            QVERIFY(bytes.contains("Dream-RSI")); // text stays text
        }
    }

    void exportRejectsBadInput()
    {
        QTemporaryDir dir;
        const Result<Done> gif = FigureExport::write(dir.filePath(QStringLiteral("fig.gif")), {}, [](QPainter &, const QRectF &) {});
        QVERIFY(!gif);
        QVERIFY(gif.error.contains(QLatin1String(".png")));
        FigureExport::Options tiny;
        tiny.sizeMm = QSizeF(1, 1);
        const Result<Done> small = FigureExport::write(dir.filePath(QStringLiteral("fig.png")), tiny, [](QPainter &, const QRectF &) {});
        QVERIFY(!small);
        QVERIFY(small.error.contains(QLatin1String("10 and 2000 mm")));
    }
};

QTEST_MAIN(TestInspector)
#include "tst_gui_inspector.moc"
