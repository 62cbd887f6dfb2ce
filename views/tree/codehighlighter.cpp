#include "codehighlighter.h"

#include <QColor>

namespace dreamrsi {

CodeHighlighter::CodeHighlighter(QTextDocument *document, Language language)
    : QSyntaxHighlighter(document)
    , m_language(language)
{
    rebuildRules();
}

void CodeHighlighter::setLanguage(Language language)
{
    if (language == m_language)
        return;
    m_language = language;
    rebuildRules();
    rehighlight();
}

void CodeHighlighter::setDark(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    rebuildRules();
    rehighlight();
}

CodeHighlighter::Language CodeHighlighter::guess(const QString &text)
{
    const QString head = text.left(4000);
    if (head.startsWith(QLatin1String("--- ")) || head.startsWith(QLatin1String("@@ ")))
        return Language::Diff;
    if (head.contains(QLatin1String("#include")) || head.contains(QLatin1String("__global__"))
        || head.contains(QLatin1String("std::")))
        return Language::Cpp;
    if (head.contains(QLatin1String("function ")) || head.contains(QLatin1String("=>"))
        || head.contains(QLatin1String("var ")) || head.contains(QLatin1String("const ")))
        return Language::JavaScript;
    if (head.contains(QLatin1String("def ")) || head.contains(QLatin1String("import "))
        || head.startsWith(QLatin1String("#!/usr/bin/env python")) || head.startsWith(QLatin1String("# ")))
        return Language::Python;
    return Language::Plain;
}

void CodeHighlighter::rebuildRules()
{
    m_rules.clear();
    m_blockCommentStart = {};
    m_blockCommentEnd = {};
    auto format = [](const QColor &c, bool bold = false, bool italic = false) {
        QTextCharFormat f;
        f.setForeground(c);
        if (bold)
            f.setFontWeight(QFont::Bold);
        f.setFontItalic(italic);
        return f;
    };
    const QColor keyword = m_dark ? QColor(0xc6, 0x78, 0xdd) : QColor(0x00, 0x33, 0xb3);
    const QColor type = m_dark ? QColor(0xe5, 0xc0, 0x7b) : QColor(0x80, 0x4a, 0x00);
    const QColor string = m_dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x06, 0x7d, 0x17);
    const QColor number = m_dark ? QColor(0xd1, 0x9a, 0x66) : QColor(0x17, 0x50, 0xeb);
    const QColor comment = m_dark ? QColor(0x7f, 0x84, 0x8e) : QColor(0x8c, 0x8c, 0x8c);
    const QColor preproc = m_dark ? QColor(0x56, 0xb6, 0xc2) : QColor(0x9e, 0x88, 0x0d);
    m_commentFormat = format(comment, false, true);

    auto words = [&](const char *list, const QColor &c, bool bold) {
        const QString alternatives = QString::fromLatin1(list).split(QLatin1Char(' '), Qt::SkipEmptyParts).join(QLatin1Char('|'));
        m_rules.append({QRegularExpression(QStringLiteral("\\b(?:%1)\\b").arg(alternatives)), format(c, bold)});
    };
    const QTextCharFormat numberFormat = format(number);
    const QRegularExpression numberRe(QStringLiteral("\\b(?:0x[0-9a-fA-F]+|\\d+\\.?\\d*(?:[eE][-+]?\\d+)?)[fFuUlL]*\\b"));

    switch (m_language) {
    case Language::Plain:
        break;
    case Language::Python:
        words("and as assert async await break class continue def del elif else except finally for from global if "
              "import in is lambda nonlocal not or pass raise return try while with yield None True False self",
              keyword, true);
        words("int float str list dict tuple set bool range len print np numpy", type, false);
        m_rules.append({numberRe, numberFormat});
        m_rules.append({QRegularExpression(QStringLiteral("@\\w+")), format(preproc)});
        m_rules.append({QRegularExpression(QStringLiteral("\"\"\".*?\"\"\"|'''.*?'''|\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'")), format(string)});
        m_rules.append({QRegularExpression(QStringLiteral("#[^\\n]*")), m_commentFormat});
        break;
    case Language::Cpp:
        words("alignas auto break case catch class const constexpr continue default delete do else enum explicit "
              "extern for friend goto if inline namespace new noexcept nullptr operator private protected public "
              "return sizeof static static_cast struct switch template this throw try typedef typename union using "
              "virtual volatile while __global__ __device__ __host__ __shared__ __syncthreads",
              keyword, true);
        words("void bool char short int long float double unsigned signed size_t int64_t uint32_t std Eigen "
              "VectorXd MatrixXd", type, false);
        m_rules.append({numberRe, numberFormat});
        m_rules.append({QRegularExpression(QStringLiteral("^\\s*#\\s*\\w+[^\\n]*")), format(preproc)});
        m_rules.append({QRegularExpression(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'")), format(string)});
        m_rules.append({QRegularExpression(QStringLiteral("//[^\\n]*")), m_commentFormat});
        m_blockCommentStart = QRegularExpression(QStringLiteral("/\\*"));
        m_blockCommentEnd = QRegularExpression(QStringLiteral("\\*/"));
        break;
    case Language::JavaScript:
        words("break case catch class const continue default delete do else export for function if in instanceof "
              "let new of return switch this throw try typeof var void while yield null undefined true false",
              keyword, true);
        words("Math Number Array Object String JSON Infinity NaN state", type, false);
        m_rules.append({numberRe, numberFormat});
        m_rules.append({QRegularExpression(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`")), format(string)});
        m_rules.append({QRegularExpression(QStringLiteral("//[^\\n]*")), m_commentFormat});
        m_blockCommentStart = QRegularExpression(QStringLiteral("/\\*"));
        m_blockCommentEnd = QRegularExpression(QStringLiteral("\\*/"));
        break;
    case Language::Diff: {
        QTextCharFormat added = format(m_dark ? QColor(0x98, 0xc3, 0x79) : QColor(0x11, 0x6b, 0x21));
        added.setBackground(m_dark ? QColor(0x1f, 0x3a, 0x24) : QColor(0xe6, 0xff, 0xec));
        QTextCharFormat removed = format(m_dark ? QColor(0xe0, 0x6c, 0x75) : QColor(0xb3, 0x1d, 0x28));
        removed.setBackground(m_dark ? QColor(0x45, 0x22, 0x25) : QColor(0xff, 0xeb, 0xe9));
        m_rules.append({QRegularExpression(QStringLiteral("^\\+.*$")), added});
        m_rules.append({QRegularExpression(QStringLiteral("^-.*$")), removed});
        m_rules.append({QRegularExpression(QStringLiteral("^@@.*@@")), format(preproc, true)});
        m_rules.append({QRegularExpression(QStringLiteral("^(?:\\+\\+\\+|---) .*$")), format(keyword, true)});
        break;
    }
    }
}

void CodeHighlighter::highlightBlock(const QString &text)
{
    for (const Rule &rule : std::as_const(m_rules)) {
        auto it = rule.pattern.globalMatch(text);
        while (it.hasNext()) {
            const auto match = it.next();
            setFormat(int(match.capturedStart()), int(match.capturedLength()), rule.format);
        }
    }
    setCurrentBlockState(0);
    if (!m_blockCommentStart.isValid() || m_blockCommentStart.pattern().isEmpty())
        return;
    qsizetype start = previousBlockState() == 1 ? 0 : text.indexOf(m_blockCommentStart);
    while (start >= 0) {
        const auto end = m_blockCommentEnd.match(text, start + (previousBlockState() == 1 && start == 0 ? 0 : 2));
        qsizetype length;
        if (!end.hasMatch()) {
            setCurrentBlockState(1);
            length = text.length() - start;
        } else {
            length = end.capturedEnd() - start;
        }
        setFormat(int(start), int(length), m_commentFormat);
        start = text.indexOf(m_blockCommentStart, start + length);
    }
}

} // namespace dreamrsi
