#pragma once

#include "remote/remoteclient.h"

#include <QByteArray>
#include <QDialog>
#include <QString>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace dreamrsi {

/// File ▸ Connect to Server…: the URL of a project served by `dreamrsi
/// serve` (docs/remote.md), its token, and optionally the steering token.
/// The tokens are kept for the session only, unless "Remember in the
/// system keychain" is ticked (QtKeychain); where no keychain (secret
/// service) answers, the dialog says so and the box stays off. A URL or a
/// token that cannot be right is said under the fields before anything is
/// sent. Nothing here blocks: the keychain answers later.
class ConnectDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget *parent = nullptr);

    /// Fills the URL (and the tokens, when known for it).
    void setUrl(const QString &url);
    void setTokens(const QByteArray &token, const QByteArray &steeringToken);
    /// What was entered, once accepted: the server's root and the read token.
    RemoteProject project() const;
    QByteArray steeringToken() const;
    bool remember() const;
    /// Whether a system keychain answered (known once keychainChecked()).
    bool keychainAvailable() const { return m_keychain; }

    /// The service name under which tokens are kept in the keychain.
    static QString keychainService();
    /// Keeps (or, when empty, removes) the tokens of `url` in the keychain;
    /// `done` gets an empty string or why not. Answered later.
    static void storeInKeychain(const QString &url, const QByteArray &token, const QByteArray &steeringToken,
                                std::function<void(QString)> done, QObject *context);
    /// Reads the tokens kept for `url`: `done(token, steeringToken, error)`.
    static void readFromKeychain(const QString &url, std::function<void(QByteArray, QByteArray, QString)> done,
                                 QObject *context);

    void accept() override;

signals:
    /// The keychain answered whether it is there.
    void keychainChecked(bool available);

private:
    /// Why the entries cannot be used, empty when they can.
    QString problem() const;
    void lookUpTokens();

    QLineEdit *m_url = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_steering = nullptr;
    QCheckBox *m_remember = nullptr;
    QLabel *m_keychainNote = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_connect = nullptr;
    bool m_keychain = false;
    QString m_lookedUp; ///< the URL whose tokens were looked up last
};

} // namespace dreamrsi
