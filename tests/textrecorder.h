// A paint device that records the text painted on it and where: the labels
// a painting puts on the page, to check that they neither collide nor
// repeat nor leave the page.
#pragma once

#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPaintEngine>
#include <QPolygonF>
#include <QRectF>
#include <QSize>
#include <QString>
#include <QTransform>

namespace dreamrsi::test {

/// Text is measured as the device draws it: at the device's DPI (`dpi`, 96
/// unless told; FigureExport::logicalDpi() to stand for the image a figure
/// is rendered into).
class TextRecorder final : public QPaintDevice
{
public:
    struct Text
    {
        QString text;
        QRectF rect;   ///< device coordinates: the bounding box
        QPolygonF box; ///< device coordinates: the text's own box, turned with it
    };
    explicit TextRecorder(QSize size, int dpi = 96)
        : m_size(size)
        , m_dpi(dpi)
    {
    }
    ~TextRecorder() override = default;
    QPaintEngine *paintEngine() const override { return &m_engine; }
    const QList<Text> &texts() const { return m_engine.texts; }

    /// The first two texts whose boxes (turned with turned text) overlap by
    /// more than a pixel each way, as "'a' and 'b'"; empty when none do.
    static QString firstCollision(const QList<Text> &texts)
    {
        for (qsizetype a = 0; a < texts.size(); ++a) {
            for (qsizetype b = a + 1; b < texts.size(); ++b) {
                if (!texts.at(a).rect.intersects(texts.at(b).rect))
                    continue;
                const QRectF overlap = texts.at(a).box.intersected(texts.at(b).box).boundingRect();
                if (overlap.width() > 1 && overlap.height() > 1)
                    return QStringLiteral("'%1' and '%2'").arg(texts.at(a).text, texts.at(b).text);
            }
        }
        return {};
    }

protected:
    int metric(PaintDeviceMetric m) const override
    {
        switch (m) {
        case PdmWidth:
            return m_size.width();
        case PdmHeight:
            return m_size.height();
        case PdmWidthMM:
            return int(m_size.width() * 25.4 / m_dpi);
        case PdmHeightMM:
            return int(m_size.height() * 25.4 / m_dpi);
        case PdmDpiX:
        case PdmDpiY:
        case PdmPhysicalDpiX:
        case PdmPhysicalDpiY:
            return m_dpi;
        case PdmDepth:
            return 32;
        case PdmDevicePixelRatio:
            return 1;
        case PdmDevicePixelRatioScaled:
            return int(QPaintDevice::devicePixelRatioFScale());
        default:
            return QPaintDevice::metric(m);
        }
    }

private:
    struct Engine final : QPaintEngine
    {
        Engine()
            : QPaintEngine(QPaintEngine::AllFeatures)
        {
        }
        bool begin(QPaintDevice *) override { return true; }
        bool end() override { return true; }
        void updateState(const QPaintEngineState &state) override
        {
            if (state.state() & QPaintEngine::DirtyTransform)
                transform = state.transform();
        }
        void drawPixmap(const QRectF &, const QPixmap &, const QRectF &) override {}
        void drawPolygon(const QPointF *, int, PolygonDrawMode) override {}
        void drawPath(const QPainterPath &) override {}
        void drawTextItem(const QPointF &p, const QTextItem &item) override
        {
            const QFontMetricsF fm(item.font(), paintDevice());
            const QRectF local(p.x(), p.y() - fm.ascent(), fm.horizontalAdvance(item.text()), fm.height());
            texts.append({item.text(), transform.mapRect(local), transform.map(QPolygonF(local))});
        }
        Type type() const override { return QPaintEngine::User; }
        QTransform transform;
        QList<Text> texts;
    };
    QSize m_size;
    int m_dpi;
    mutable Engine m_engine;
};

} // namespace dreamrsi::test
