#include "apptheme.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QIcon>
#include <QLegend>
#include <QPainter>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace dreamrsi {

namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x44));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x55, 0x55));
    p.setColor(QPalette::Link, QColor(0x4d, 0xb8, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x40, 0x42, 0x46));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4d));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QPalette lightPalette()
{
    QPalette p = QStyleFactory::create(QStringLiteral("Fusion"))->standardPalette();
    p.setColor(QPalette::AlternateBase, QColor(0xf3, 0xf5, 0xf8));
    return p;
}
} // namespace

bool AppTheme::apply(AppSettings::Theme theme)
{
    bool dark = false;
    switch (theme) {
    case AppSettings::Theme::System: {
        const QPalette system = QApplication::style()->standardPalette();
        dark = system.color(QPalette::Window).lightness() < 128;
        QApplication::setPalette(system);
        break;
    }
    case AppSettings::Theme::Light:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(lightPalette());
        break;
    case AppSettings::Theme::Dark:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        dark = true;
        break;
    }
    return dark;
}

bool AppTheme::isDarkIcon(const QIcon &icon)
{
    // The mean lightness of its opaque pixels at toolbar size.
    const QImage image = icon.pixmap(QSize(24, 24)).toImage().convertToFormat(QImage::Format_ARGB32);
    double lightness = 0;
    int opaque = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (c.alpha() < 128)
                continue;
            lightness += c.lightnessF();
            ++opaque;
        }
    }
    return opaque > 0 && lightness / opaque < 0.35;
}

void AppTheme::adaptIcons(const QList<QAction *> &actions, bool dark)
{
    static const char *const Own = "dreamrsiOwnIcon";       // the action's own icon
    static const char *const Tinted = "dreamrsiTintedIcon"; // the cache key of the one drawn here
    const QColor ink = QApplication::palette().color(QPalette::ButtonText);
    for (QAction *a : actions) {
        const QIcon current = a->icon();
        // An icon set since the last call (not the tinted one) is the action's own from now on.
        if (current.cacheKey() != a->property(Tinted).toLongLong())
            a->setProperty(Own, current.isNull() ? QVariant() : QVariant::fromValue(current));
        if (!a->property(Own).isValid())
            continue;
        const QIcon own = a->property(Own).value<QIcon>();
        if (!dark || !isDarkIcon(own)) {
            a->setIcon(own);
            a->setProperty(Tinted, QVariant());
            continue;
        }
        // The icon's shape in the text colour, at each size it comes in.
        QIcon tinted;
        QList<QSize> sizes = own.availableSizes();
        if (sizes.isEmpty())
            sizes = {QSize(16, 16), QSize(22, 22), QSize(24, 24), QSize(32, 32)};
        for (const QSize &size : std::as_const(sizes)) {
            for (const QIcon::Mode mode : {QIcon::Normal, QIcon::Disabled}) {
                QPixmap pixmap = own.pixmap(size);
                QPainter p(&pixmap);
                p.setCompositionMode(QPainter::CompositionMode_SourceIn);
                QColor color = ink;
                if (mode == QIcon::Disabled)
                    color.setAlpha(110);
                p.fillRect(pixmap.rect(), color);
                p.end();
                tinted.addPixmap(pixmap, mode);
            }
        }
        a->setIcon(tinted);
        a->setProperty(Tinted, a->icon().cacheKey());
    }
}

void AppTheme::styleCharts(QWidget *root, bool dark)
{
    const QColor background = dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white);
    const QColor text = dark ? QColor(0xe6, 0xe6, 0xe6) : QColor(0x20, 0x20, 0x20);
    const QColor grid = dark ? QColor(0x40, 0x42, 0x46) : QColor(0xe3, 0xe3, 0xe3);
    for (QChartView *view : root->findChildren<QChartView *>()) {
        QChart *chart = view->chart();
        if (!chart)
            continue;
        view->setBackgroundBrush(background);
        chart->setBackgroundBrush(background);
        chart->setPlotAreaBackgroundVisible(false);
        chart->setTitleBrush(text);
        chart->legend()->setLabelColor(text);
        for (QAbstractAxis *axis : chart->axes()) {
            axis->setLabelsColor(text);
            axis->setTitleBrush(text);
            axis->setLinePenColor(text);
            axis->setGridLineColor(grid);
        }
    }
}

} // namespace dreamrsi
