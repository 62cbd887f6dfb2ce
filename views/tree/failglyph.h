#pragma once

#include <QColor>
#include <QRectF>
#include <QString>

class QPainter;

namespace dreamrsi {

/// The mark a failed attempt carries in the tree view, one shape per fail
/// class of docs/tree-format.md#fail-classes, chosen to stay distinct in greyscale print.
enum class FailGlyph {
    None,        ///< ok
    Cross,       ///< compile
    Bolt,        ///< runtime (a zig-zag)
    Clock,       ///< timeout
    Slash,       ///< correctness (circle with a bar)
    Square,      ///< resource
    Triangle,    ///< env
    Ring,        ///< agent (no program)
    Dot,         ///< any unknown class
};

namespace FailGlyphs {
FailGlyph forClass(const QString &failClass);
/// Draws the glyph centred in rect with the given colour; no-op for None.
void paint(QPainter &painter, FailGlyph glyph, const QRectF &rect, const QColor &color);
/// Translated, human-readable name of a fail class ("Compile error", …).
QString label(const QString &failClass);
} // namespace FailGlyphs

} // namespace dreamrsi
