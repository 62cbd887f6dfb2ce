#pragma once

#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace dreamrsi {

/// Keyword, string, number and comment highlighting for the languages the
/// workbench shows: candidate programs (Python, C++/CUDA), policies
/// (JavaScript) and unified diffs.
class CodeHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    enum class Language { Plain, Python, Cpp, JavaScript, Diff };

    explicit CodeHighlighter(QTextDocument *document, Language language = Language::Plain);

    void setLanguage(Language language);
    Language language() const { return m_language; }
    void setDark(bool dark);

    /// Guesses the language of a program from its text (shebang, includes, def/import).
    static Language guess(const QString &text);

protected:
    void highlightBlock(const QString &text) override;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
    };
    void rebuildRules();

    Language m_language;
    bool m_dark = false;
    QList<Rule> m_rules;
    QTextCharFormat m_commentFormat;
    QRegularExpression m_blockCommentStart;
    QRegularExpression m_blockCommentEnd;
};

} // namespace dreamrsi
