// Every shipped translation is clean text, message by message: each
// translations/dreamrsi_*.ts is read with QXmlStreamReader for its
// (context, source, comment, numerus) messages, and each is checked twice, in
// the .ts itself and in the .qm the build compiles from it (the file the
// workbench loads from :/i18n), through QTranslator::translate for n = 0, 1,
// 2, 5. A translation may hold no markup its source lacks (no escaped
// `&lt;/source&gt;` pasted from another message, no `<numerusform>`), must
// carry the source's placeholders (%1…%99, %n, %Ln) and no others, and may
// not be empty where the source is not. English %n strings with "(s)" must
// have distinct singular and plural wording. Each failure names the language,
// the context, the source string and what is wrong.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

struct TsMessage
{
    QString context;
    QString source;
    QString comment;
    bool numerus = false;
    QStringList forms; // the numerusforms, or the one translation
    qint64 line = 0;
};

struct TsFile
{
    QString language;
    QList<TsMessage> messages;
    QString error; // empty when the file parsed
};

// The messages of a .ts file, vanished and obsolete ones left out (lrelease
// leaves them out of the .qm too).
TsFile readTs(const QString &path)
{
    TsFile ts;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        ts.error = QStringLiteral("cannot open %1: %2").arg(path, f.errorString());
        return ts;
    }
    QXmlStreamReader xml(&f);
    QString context;
    while (!xml.atEnd()) {
        if (xml.readNext() != QXmlStreamReader::StartElement)
            continue;
        const auto name = xml.name();
        if (name == QLatin1String("TS")) {
            ts.language = xml.attributes().value(QLatin1String("language")).toString();
        } else if (name == QLatin1String("context")) {
            context.clear();
        } else if (name == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (name == QLatin1String("message")) {
            TsMessage m;
            m.context = context;
            m.numerus = xml.attributes().value(QLatin1String("numerus")) == QLatin1String("yes");
            m.line = xml.lineNumber();
            bool keep = true;
            while (xml.readNextStartElement()) {
                const auto child = xml.name();
                if (child == QLatin1String("source")) {
                    m.source = xml.readElementText();
                } else if (child == QLatin1String("comment")) {
                    m.comment = xml.readElementText();
                } else if (child == QLatin1String("translation")) {
                    const auto type = xml.attributes().value(QLatin1String("type"));
                    if (type == QLatin1String("vanished") || type == QLatin1String("obsolete"))
                        keep = false;
                    if (m.numerus) {
                        while (xml.readNextStartElement()) {
                            if (xml.name() == QLatin1String("numerusform"))
                                m.forms << xml.readElementText();
                            else
                                xml.skipCurrentElement();
                        }
                    } else {
                        m.forms << xml.readElementText();
                    }
                } else {
                    xml.skipCurrentElement();
                }
            }
            if (keep)
                ts.messages << m;
        }
    }
    if (xml.hasError())
        ts.error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return ts;
}

QStringList sortedMatches(const QRegularExpression &re, const QString &text)
{
    QStringList found;
    for (auto it = re.globalMatch(text); it.hasNext();)
        found << it.next().captured(0);
    found.sort();
    return found;
}

// What is wrong with `text` as a translation of `source`; empty when nothing.
QStringList problemsOf(const QString &source, const QString &text)
{
    QStringList problems;
    if (text.isEmpty()) {
        if (!source.isEmpty())
            problems << QStringLiteral("the translation is empty");
        return problems;
    }
    // Markup: the tags of the translation are the source's own (rich text
    // such as <b>%1</b> is kept), no more.
    static const QRegularExpression tag(QStringLiteral("<[^<>]*>"));
    QStringList extra = sortedMatches(tag, text);
    for (const QString &t : sortedMatches(tag, source))
        extra.removeOne(t);
    extra.removeDuplicates();
    if (extra.size() > 6)
        extra = extra.mid(0, 6) << QStringLiteral("…");
    if (!extra.isEmpty())
        problems << QStringLiteral("holds markup the source lacks: %1").arg(extra.join(QLatin1Char(' ')));
    if (text.count(QLatin1Char('<')) > source.count(QLatin1Char('<'))
        || text.count(QLatin1Char('>')) > source.count(QLatin1Char('>')))
        problems << QStringLiteral("holds more '<' or '>' than the source");
    for (const char *entity : {"&lt;", "&gt;", "&amp;", "&quot;", "&apos;"}) {
        const QLatin1String e(entity);
        if (text.contains(e) && !source.contains(e))
            problems << QStringLiteral("holds the escaped markup %1").arg(e);
    }
    // Placeholders: the same %1…%99, %n and %Ln as the source.
    static const QRegularExpression placeholder(QStringLiteral("%L?(?:n|[1-9][0-9]?)"));
    const QStringList inText = sortedMatches(placeholder, text), inSource = sortedMatches(placeholder, source);
    const QSet<QString> t(inText.cbegin(), inText.cend()), s(inSource.cbegin(), inSource.cend());
    QStringList missing = QSet<QString>(s).subtract(t).values(), added = QSet<QString>(t).subtract(s).values();
    missing.sort();
    added.sort();
    if (!missing.isEmpty())
        problems << QStringLiteral("lacks the placeholder(s) %1").arg(missing.join(QLatin1Char(' ')));
    if (!added.isEmpty())
        problems << QStringLiteral("has placeholder(s) the source lacks: %1").arg(added.join(QLatin1Char(' ')));
    return problems;
}

QString shown(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    if (text.size() > 100)
        text = text.left(97) + QLatin1String("...");
    return QLatin1Char('"') + text + QLatin1Char('"');
}

QString where(const QString &file, const TsMessage &m)
{
    return QStringLiteral("%1:%2 [%3] %4").arg(file).arg(m.line).arg(m.context, shown(m.source));
}

const QRegularExpression &englishPlural()
{
    static const QRegularExpression re(QStringLiteral("\\(e?s\\)"));
    return re;
}

QString translationsDir() { return QStringLiteral(DREAMRSI_SOURCE_DIR "/translations"); }

} // namespace

class TestShippedTranslations : public QObject
{
    Q_OBJECT

    static void addLanguages()
    {
        QTest::addColumn<QString>("ts");
        QTest::addColumn<QString>("qm");
        const QStringList files = QDir(translationsDir()).entryList({QStringLiteral("dreamrsi_*.ts")}, QDir::Files, QDir::Name);
        for (const QString &file : files) {
            const QString base = QFileInfo(file).completeBaseName();
            QTest::addRow("%s", qPrintable(base)) << QString(translationsDir() + QLatin1Char('/') + file)
                                                  << QString(QStringLiteral(DREAMRSI_QM_DIR "/") + base + QLatin1String(".qm"));
        }
    }

private slots:
    // The checks themselves see the damage issue 53 found: a message of
    // another entry pasted, escaped, into a numerusform.
    void checksCatchPastedMarkup()
    {
        const QString source = QStringLiteral("Laying out %Ln cell(s)…");
        QVERIFY(problemsOf(source, QStringLiteral("Laying out %Ln cell…")).isEmpty());
        QVERIFY(problemsOf(QStringLiteral("cap <b>%1</b>"), QStringLiteral("上限 <b>%1</b>")).isEmpty());
        const QStringList pasted = problemsOf(source,
            QStringLiteral("%n imagined cell: seed %3</source>\n<translation>\n<numerusform>%n match</numerusform>"));
        QVERIFY2(pasted.join(QLatin1Char('|')).contains(QLatin1String("</source>")), qPrintable(pasted.join(QLatin1Char('|'))));
        QVERIFY2(pasted.join(QLatin1Char('|')).contains(QLatin1String("lacks the placeholder(s) %Ln")), qPrintable(pasted.join(QLatin1Char('|'))));
        QVERIFY(!problemsOf(source, QStringLiteral("Laying out %Ln cell&lt;/source&gt;")).isEmpty());
        QVERIFY(!problemsOf(QStringLiteral("%1 of %2"), QStringLiteral("%1")).isEmpty());
        QVERIFY(!problemsOf(QStringLiteral("%n cell(s)"), QString()).isEmpty());
    }

    void everyLanguageIsShipped()
    {
        const QStringList files = QDir(translationsDir()).entryList({QStringLiteral("dreamrsi_*.ts")}, QDir::Files);
        QVERIFY2(files.contains(QLatin1String("dreamrsi_en.ts")) && files.contains(QLatin1String("dreamrsi_zh_CN.ts")),
                 qPrintable(files.join(QLatin1Char(' '))));
    }

    // The .ts file: well-formed XML whose every form is clean text.
    void tsMessagesAreCleanText_data() { addLanguages(); }
    void tsMessagesAreCleanText()
    {
        QFETCH(QString, ts);
        const TsFile parsed = readTs(ts);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QVERIFY2(!parsed.messages.isEmpty(), qPrintable(ts + QLatin1String(" has no messages")));
        const QString file = QFileInfo(ts).fileName();
        const bool english = parsed.language.startsWith(QLatin1String("en"));
        QStringList failures;
        for (const TsMessage &m : parsed.messages) {
            if (m.forms.isEmpty())
                failures << where(file, m) + QLatin1String(": no translation");
            if (m.numerus && english && m.forms.size() != 2)
                failures << where(file, m) + QStringLiteral(": %1 numerusform(s), English needs 2 (singular, plural)").arg(m.forms.size());
            for (qsizetype i = 0; i < m.forms.size(); ++i) {
                const QStringList problems = problemsOf(m.source, m.forms.at(i));
                if (!problems.isEmpty())
                    failures << where(file, m) + QStringLiteral(", form %1: %2; it reads %3")
                                                     .arg(i)
                                                     .arg(problems.join(QLatin1String("; ")), shown(m.forms.at(i)));
            }
            if (m.numerus && english && m.source.contains(englishPlural()) && m.forms.size() == 2) {
                if (m.forms.at(0) == m.forms.at(1))
                    failures << where(file, m) + QLatin1String(": singular and plural wording are the same");
                for (const QString &form : m.forms) {
                    if (form.contains(englishPlural()))
                        failures << where(file, m) + QStringLiteral(": %1 keeps the source's (s)").arg(shown(form));
                }
            }
        }
        // QFAIL, not QVERIFY2: QVERIFY2 cuts its message at 1024 bytes.
        if (!failures.isEmpty())
            QFAIL(qPrintable(QStringLiteral("%1 problem(s):\n").arg(failures.size()) + failures.join(QLatin1Char('\n'))));
    }

    // The compiled .qm the workbench ships: every message of the .ts found,
    // for every count, as clean text that the .ts holds.
    void qmMessagesAreCleanText_data() { addLanguages(); }
    void qmMessagesAreCleanText()
    {
        QFETCH(QString, ts);
        QFETCH(QString, qm);
        const TsFile parsed = readTs(ts);
        QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
        QTranslator translator;
        QVERIFY2(translator.load(qm), qPrintable(QLatin1String("cannot load ") + qm));
        const QString file = QFileInfo(qm).fileName();
        const bool english = parsed.language.startsWith(QLatin1String("en"));
        QStringList failures;
        int checked = 0;
        for (const TsMessage &m : parsed.messages) {
            const QByteArray context = m.context.toUtf8(), source = m.source.toUtf8(), comment = m.comment.toUtf8();
            const QList<int> counts = m.numerus ? QList<int>{0, 1, 2, 5} : QList<int>{-1};
            // The distinct texts the .qm gives, each with the counts that give it.
            QStringList texts;
            QList<QStringList> countsOf;
            for (int n : counts) {
                const QString text = translator.translate(context.constData(), source.constData(),
                                                          m.comment.isEmpty() ? nullptr : comment.constData(), n);
                ++checked;
                qsizetype i = texts.indexOf(text);
                if (i < 0) {
                    texts << text;
                    countsOf << QStringList();
                    i = texts.size() - 1;
                }
                countsOf[i] << QString::number(n);
            }
            for (qsizetype i = 0; i < texts.size(); ++i) {
                const QString &text = texts.at(i);
                const QString at = where(file + QLatin1String(", message of ") + QFileInfo(ts).fileName(), m)
                    + (m.numerus ? QLatin1String(", n=") + countsOf.at(i).join(QLatin1Char(',')) : QString());
                if (text.isEmpty() && !m.source.isEmpty()) {
                    failures << at + QLatin1String(": missing from the .qm (translate gives nothing)");
                    continue;
                }
                const QStringList problems = problemsOf(m.source, text);
                if (!problems.isEmpty())
                    failures << at + QStringLiteral(": %1; it reads %2").arg(problems.join(QLatin1String("; ")), shown(text));
                if (!m.forms.contains(text))
                    failures << at + QStringLiteral(": the .qm gives %1, which the .ts does not hold (stale .qm?)").arg(shown(text));
            }
            if (m.numerus && english && m.source.contains(englishPlural()) && texts.size() < 2)
                failures << where(file, m) + QStringLiteral(": n=1 and n=2 read the same, %1").arg(shown(texts.value(0)));
        }
        QVERIFY(checked > 0);
        // QFAIL, not QVERIFY2: QVERIFY2 cuts its message at 1024 bytes.
        if (!failures.isEmpty())
            QFAIL(qPrintable(QStringLiteral("%1 problem(s):\n").arg(failures.size()) + failures.join(QLatin1Char('\n'))));
    }
};

QTEST_GUILESS_MAIN(TestShippedTranslations)
#include "tst_shipped_translations.moc"
