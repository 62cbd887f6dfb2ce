// The Agents page of Settings: the price table is edited, validated,
// persisted with QSettings and installed as the process's table; API keys
// typed in go to the session's memory only, never into QSettings. The
// agent time limit is one setting, shown by Settings and Launch Round.
#include "agent/pricetable.h"
#include "agent/sessionkeys.h"
#include "session/appsettings.h"
#include "session/preferences.h"
#include "live/launchrounddialog.h"
#include "window/settingsdialog.h"

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace dreamrsi;

class TestAgentSettings : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("dreamrsi-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_agent_settings"));
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    void editPricesAndKeys()
    {
        AppSettings initial;
        SettingsDialog dialog(initial);
        auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("priceTable"));
        QVERIFY(table);
        QCOMPARE(table->rowCount(), int(PriceTable::defaults().prices().size()));
        auto *add = dialog.findChild<QPushButton *>(QStringLiteral("addPrice"));
        QVERIFY(add);
        add->click();
        const int row = table->rowCount() - 1;
        table->item(row, 0)->setText(QStringLiteral("my-local-model"));
        table->item(row, 1)->setData(Qt::EditRole, 0.125);
        table->item(row, 2)->setData(Qt::EditRole, 0.5);
        // Remove the first default row.
        const QString removed = table->item(0, 0)->text();
        table->setCurrentCell(0, 0);
        table->selectRow(0);
        dialog.findChild<QPushButton *>(QStringLiteral("removePrice"))->click();

        auto *key = dialog.findChild<QLineEdit *>(QStringLiteral("apiKey_anthropic"));
        QVERIFY(key);
        QCOMPARE(key->echoMode(), QLineEdit::Password);
        key->setText(QStringLiteral("sk-PLANTED-123"));

        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
        const AppSettings edited = dialog.settings();
        const auto price = edited.prices.priceFor(QStringLiteral("my-local-model"));
        QVERIFY(price);
        QCOMPARE(price->inputPerMillion, 0.125);
        QCOMPARE(price->outputPerMillion, 0.5);
        QVERIFY(!edited.prices.prices().contains(*PriceTable::defaults().priceFor(removed)));
        QCOMPARE(SessionKeys::get(QStringLiteral("anthropic")), QStringLiteral("sk-PLANTED-123"));

        // Saved, reloaded, installed; the key is nowhere in the settings file.
        edited.save();
        QCOMPARE(PriceTable::current().usd(QStringLiteral("my-local-model"), 8'000'000, 0), 1.0);
        PriceTable::setCurrent(PriceTable::defaults());
        const AppSettings reloaded = AppSettings::load();
        QVERIFY(reloaded.prices == edited.prices);
        QVERIFY(PriceTable::current() == edited.prices);
        QSettings settings;
        settings.sync();
        const QStringList keys = settings.allKeys();
        for (const QString &k : keys)
            QVERIFY(!settings.value(k).toString().contains(QStringLiteral("sk-PLANTED-123")));
        QFile file(settings.fileName());
        if (file.open(QIODevice::ReadOnly))
            QVERIFY(!file.readAll().contains("sk-PLANTED-123"));
        SessionKeys::clear();
    }

    void badRowsAreRefused()
    {
        SettingsDialog dialog(AppSettings{});
        auto *table = dialog.findChild<QTableWidget *>(QStringLiteral("priceTable"));
        QVERIFY(table);
        table->item(1, 0)->setText(table->item(0, 0)->text()); // a duplicate name
        // accept() would show a warning box; settings() keeps the old prices meanwhile.
        QCOMPARE(dialog.settings().prices, AppSettings{}.prices);
        table->item(1, 0)->setText(QString());
        QCOMPARE(dialog.settings().prices, AppSettings{}.prices);
    }

    // The agent time limit per call (docs/online.md#is-it-alive) is one
    // setting: what Settings saves, Launch Round shows, and what Launch
    // Round remembers, Settings shows.
    void agentTimeLimitIsOneSetting()
    {
        QSettings().clear();
        QCOMPARE(AppSettings::load().agentTimeLimitMin, 15); // the default
        {
            SettingsDialog dialog(AppSettings::load());
            auto *limit = dialog.findChild<QSpinBox *>(QStringLiteral("agentTimeLimit"));
            QVERIFY(limit);
            QCOMPARE(limit->value(), 15);
            limit->setValue(40);
            dialog.accept();
            QCOMPARE(dialog.result(), int(QDialog::Accepted));
            QCOMPARE(dialog.settings().agentTimeLimitMin, 40);
            dialog.settings().save();
        }
        QCOMPARE(AppSettings::load().agentTimeLimitMin, 40);
        {
            Preferences preferences; // the ones in QSettings, as the window's
            LaunchRoundDialog launch({}, &preferences);
            auto *limit = qobject_cast<QSpinBox *>(launch.field(QStringLiteral("agentTimeLimit")));
            QVERIFY(limit);
            QCOMPARE(limit->value(), 40);
            QCOMPARE(launch.config().agentTimeLimitS, 40 * 60.0);
            limit->setValue(0); // no limit
            qobject_cast<QComboBox *>(launch.field(QStringLiteral("task")))->setCurrentText(QStringLiteral("lasso_path"));
            launch.accept();
            QCOMPARE(launch.result(), int(QDialog::Accepted));
        }
        QCOMPARE(AppSettings::load().agentTimeLimitMin, 0);
        SettingsDialog again(AppSettings::load());
        auto *limit = again.findChild<QSpinBox *>(QStringLiteral("agentTimeLimit"));
        QCOMPARE(limit->value(), 0);
        QCOMPARE(limit->text(), QStringLiteral("no limit"));
        // Out-of-range values stored by hand are brought within the bounds.
        QSettings().setValue(QStringLiteral("agent/timeLimitMin"), -5);
        QCOMPARE(AppSettings::load().agentTimeLimitMin, 0);
        QSettings().clear();
    }
};

QTEST_MAIN(TestAgentSettings)
#include "tst_agent_settings.moc"
