#include "failglyph.h"

#include "model/cell.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace dreamrsi {

FailGlyph FailGlyphs::forClass(const QString &failClass)
{
    if (failClass == QLatin1String(FailClass::Ok))
        return FailGlyph::None;
    if (failClass == QLatin1String(FailClass::Compile))
        return FailGlyph::Cross;
    if (failClass == QLatin1String(FailClass::Runtime))
        return FailGlyph::Bolt;
    if (failClass == QLatin1String(FailClass::Timeout))
        return FailGlyph::Clock;
    if (failClass == QLatin1String(FailClass::Correctness))
        return FailGlyph::Slash;
    if (failClass == QLatin1String(FailClass::Resource))
        return FailGlyph::Square;
    if (failClass == QLatin1String(FailClass::Env))
        return FailGlyph::Triangle;
    if (failClass == QLatin1String(FailClass::Agent))
        return FailGlyph::Ring;
    return FailGlyph::Dot;
}

void FailGlyphs::paint(QPainter &p, FailGlyph glyph, const QRectF &rect, const QColor &color)
{
    if (glyph == FailGlyph::None)
        return;
    const double s = std::min(rect.width(), rect.height()) * 0.62;
    const QPointF c = rect.center();
    const QRectF box(c.x() - s / 2, c.y() - s / 2, s, s);
    QPen pen(color, std::max(1.0, s / 7.0), Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    switch (glyph) {
    case FailGlyph::None:
        break;
    case FailGlyph::Cross:
        p.drawLine(box.topLeft(), box.bottomRight());
        p.drawLine(box.topRight(), box.bottomLeft());
        break;
    case FailGlyph::Bolt: {
        const QPointF pts[] = {{box.left() + s * 0.6, box.top()}, {box.left() + s * 0.25, box.top() + s * 0.55},
                               {box.left() + s * 0.75, box.top() + s * 0.45}, {box.left() + s * 0.4, box.bottom()}};
        p.drawPolyline(pts, 4);
        break;
    }
    case FailGlyph::Clock:
        p.drawEllipse(box);
        p.drawLine(c, QPointF(c.x(), box.top() + s * 0.2));
        p.drawLine(c, QPointF(box.right() - s * 0.22, c.y()));
        break;
    case FailGlyph::Slash:
        p.drawEllipse(box);
        p.drawLine(QPointF(box.left() + s * 0.15, box.bottom() - s * 0.15), QPointF(box.right() - s * 0.15, box.top() + s * 0.15));
        break;
    case FailGlyph::Square:
        p.setBrush(color);
        p.drawRect(box.adjusted(s * 0.1, s * 0.1, -s * 0.1, -s * 0.1));
        break;
    case FailGlyph::Triangle: {
        const QPointF pts[] = {{c.x(), box.top()}, {box.right(), box.bottom()}, {box.left(), box.bottom()}};
        p.setBrush(color);
        p.drawPolygon(pts, 3);
        break;
    }
    case FailGlyph::Ring:
        p.drawEllipse(box.adjusted(s * 0.1, s * 0.1, -s * 0.1, -s * 0.1));
        break;
    case FailGlyph::Dot:
        p.setBrush(color);
        p.drawEllipse(QRectF(c.x() - s / 5, c.y() - s / 5, s * 0.4, s * 0.4));
        break;
    }
    p.restore();
}

QString FailGlyphs::label(const QString &failClass)
{
    static const char *const names[][2] = {
        {FailClass::Ok, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Success")},
        {FailClass::Compile, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Compile error")},
        {FailClass::Runtime, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Runtime error")},
        {FailClass::Timeout, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Timeout")},
        {FailClass::Correctness, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Incorrect result")},
        {FailClass::Resource, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Resource limit")},
        {FailClass::Env, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Environment failure")},
        {FailClass::Agent, QT_TRANSLATE_NOOP("dreamrsi::FailGlyphs", "Agent failure")},
    };
    for (const auto &n : names) {
        if (failClass == QLatin1String(n[0]))
            return QCoreApplication::translate("dreamrsi::FailGlyphs", n[1]);
    }
    return failClass;
}

} // namespace dreamrsi
