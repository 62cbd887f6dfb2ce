#pragma once

#include <QString>

namespace dreamrsi {

/// An agent's Markdown answer split into proposal and program (docs/online.md#http-providers).
struct ParsedAnswer
{
    bool ok = false;
    QString error;     ///< why there is no program
    QString proposal;  ///< the answer without its last fenced code block, trimmed
    QString program;   ///< the content of the last fenced code block (any language tag)
    QString language;  ///< that block's info string ("python", "cpp", …), may be empty
};

/// Reads Markdown fences (``` or ~~~, at least three, indented by at most
/// three spaces, closed by a fence of the same character at least as long).
/// Promises: program = the LAST complete fenced block; no block → ok false
/// with an error saying that the answer has no fenced code block; a last
/// block left open (a cut-off answer) → ok false saying so; an empty block →
/// ok false saying so.
ParsedAnswer parseAnswer(const QString &text);

} // namespace dreamrsi
