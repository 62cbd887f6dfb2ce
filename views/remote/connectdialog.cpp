#include "connectdialog.h"

#include "remote/remoteaccess.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

#include <qt6keychain/keychain.h>

namespace dreamrsi {

namespace {

/// A keychain that does not answer within this is taken to be absent.
constexpr int KeychainWaitMs = 5000;

QString tokenProblem(const QByteArray &token, const QString &which)
{
    for (const char c : token) {
        if (c <= ' ' || c > '~')
            return ConnectDialog::tr("The %1 holds a space or a character outside printable ASCII.").arg(which);
    }
    if (token.size() < RemoteAccess::MinTokenLength)
        return ConnectDialog::tr("The %1 has %2 characters; a server's token has at least %3.")
            .arg(which)
            .arg(token.size())
            .arg(RemoteAccess::MinTokenLength);
    return {};
}

} // namespace

ConnectDialog::ConnectDialog(QWidget *parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Connect to Server"));
    setObjectName(QStringLiteral("connectDialog"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(tr("A project served by <code>dreamrsi serve</code> on this machine or, through "
                                "<code>ssh -N -L 8765:127.0.0.1:8765 you@host</code>, on another one. It opens read-only "
                                "and its rounds are followed live."));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    m_url = new QLineEdit;
    m_url->setObjectName(QStringLiteral("urlEdit"));
    m_url->setPlaceholderText(QStringLiteral("http://127.0.0.1:8765/"));
    form->addRow(tr("&URL:"), m_url);
    m_token = new QLineEdit;
    m_token->setObjectName(QStringLiteral("tokenEdit"));
    m_token->setEchoMode(QLineEdit::Password);
    m_token->setPlaceholderText(tr("the token serve printed or read from --token-file"));
    form->addRow(tr("&Token:"), m_token);
    m_steering = new QLineEdit;
    m_steering->setObjectName(QStringLiteral("steeringTokenEdit"));
    m_steering->setEchoMode(QLineEdit::Password);
    m_steering->setPlaceholderText(tr("optional: --steering-token-file's, to steer and approve"));
    form->addRow(tr("&Steering token:"), m_steering);
    layout->addLayout(form);
    m_remember = new QCheckBox(tr("&Remember in the system keychain"));
    m_remember->setObjectName(QStringLiteral("rememberCheck"));
    m_remember->setEnabled(false); // until the keychain answers
    layout->addWidget(m_remember);
    m_keychainNote = new QLabel(tr("Looking for the system keychain…"));
    m_keychainNote->setObjectName(QStringLiteral("keychainNote"));
    m_keychainNote->setWordWrap(true);
    layout->addWidget(m_keychainNote);
    m_error = new QLabel;
    m_error->setObjectName(QStringLiteral("errorLabel"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_error->hide();
    layout->addWidget(m_error);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_connect = buttons->addButton(tr("&Connect"), QDialogButtonBox::AcceptRole);
    m_connect->setObjectName(QStringLiteral("connectButton"));
    m_connect->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &ConnectDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_url, &QLineEdit::editingFinished, this, &ConnectDialog::lookUpTokens);
    setMinimumWidth(480);

    // Is a keychain there? Reading an entry that is not there says so (or times out).
    auto *job = new QKeychain::ReadPasswordJob(keychainService(), this);
    job->setAutoDelete(true);
    job->setKey(QStringLiteral("dreamrsi-keychain-probe"));
    auto answered = std::make_shared<bool>(false);
    auto tell = [this, answered](bool available, const QString &why) {
        if (std::exchange(*answered, true))
            return;
        m_keychain = available;
        m_remember->setEnabled(available);
        if (available) {
            m_keychainNote->setText(tr("Without the box ticked, the tokens are kept for this session only."));
        } else {
            m_remember->setChecked(false);
            m_keychainNote->setText(tr("No system keychain (secret service) answers here (%1): the tokens are kept for "
                                       "this session only.")
                                        .arg(why));
        }
        emit keychainChecked(available);
        lookUpTokens();
    };
    connect(job, &QKeychain::Job::finished, this, [tell](QKeychain::Job *j) {
        const bool available = j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound;
        tell(available, j->errorString());
    });
    QTimer::singleShot(KeychainWaitMs, this, [tell] { tell(false, tr("no answer within 5 s")); });
    job->start();
}

QString ConnectDialog::keychainService()
{
    return QStringLiteral("dreamrsi-workbench");
}

void ConnectDialog::setUrl(const QString &url)
{
    m_url->setText(url);
    lookUpTokens();
}

void ConnectDialog::setTokens(const QByteArray &token, const QByteArray &steeringToken)
{
    m_token->setText(QString::fromLatin1(token));
    m_steering->setText(QString::fromLatin1(steeringToken));
}

RemoteProject ConnectDialog::project() const
{
    RemoteProject p;
    p.base = RemoteClient::baseOf(m_url->text()).value.value_or(QUrl());
    p.token = m_token->text().trimmed().toLatin1();
    return p;
}

QByteArray ConnectDialog::steeringToken() const
{
    return m_steering->text().trimmed().toLatin1();
}

bool ConnectDialog::remember() const
{
    return m_keychain && m_remember->isChecked();
}

QString ConnectDialog::problem() const
{
    const QString url = m_url->text().trimmed();
    if (url.isEmpty())
        return tr("Give the server's URL, as serve printed it (http://127.0.0.1:8765/).");
    if (const Result<QUrl> base = RemoteClient::baseOf(url); !base)
        return tr("Not a served project's URL: %1").arg(base.error);
    const QByteArray token = m_token->text().trimmed().toLatin1();
    if (token.isEmpty())
        return tr("Give the token: serve printed it at its start, or reads it from --token-file.");
    if (const QString why = tokenProblem(token, tr("token")); !why.isEmpty())
        return why;
    const QByteArray steering = steeringToken();
    if (!steering.isEmpty()) {
        if (const QString why = tokenProblem(steering, tr("steering token")); !why.isEmpty())
            return why;
        if (steering == token)
            return tr("The steering token is the read token: a server's two tokens differ.");
    }
    return {};
}

void ConnectDialog::accept()
{
    const QString why = problem();
    m_error->setText(why);
    m_error->setVisible(!why.isEmpty());
    if (!why.isEmpty())
        return;
    QDialog::accept();
}

void ConnectDialog::lookUpTokens()
{
    // The tokens kept for this URL, when the fields are empty and a keychain is there.
    const Result<QUrl> base = RemoteClient::baseOf(m_url->text());
    if (!m_keychain || !base || !m_token->text().isEmpty())
        return;
    const QString url = base.value->toString();
    if (url == m_lookedUp)
        return;
    m_lookedUp = url;
    readFromKeychain(url, [this, url](QByteArray token, QByteArray steering, QString error) {
        if (!error.isEmpty() || token.isEmpty() || !m_token->text().isEmpty() || RemoteClient::baseOf(m_url->text()).value.value_or(QUrl()).toString() != url)
            return;
        setTokens(token, steering);
        m_remember->setChecked(true);
    }, this);
}

void ConnectDialog::storeInKeychain(const QString &url, const QByteArray &token, const QByteArray &steeringToken,
                                    std::function<void(QString)> done, QObject *context)
{
    QKeychain::Job *job = nullptr;
    if (token.isEmpty()) {
        auto *remove = new QKeychain::DeletePasswordJob(keychainService(), context);
        remove->setKey(url);
        job = remove;
    } else {
        auto *write = new QKeychain::WritePasswordJob(keychainService(), context);
        write->setKey(url);
        write->setBinaryData(QJsonDocument(QJsonObject{{QStringLiteral("token"), QString::fromLatin1(token)},
                                                       {QStringLiteral("steering"), QString::fromLatin1(steeringToken)}})
                                 .toJson(QJsonDocument::Compact));
        job = write;
    }
    job->setAutoDelete(true);
    QObject::connect(job, &QKeychain::Job::finished, context, [done](QKeychain::Job *j) {
        const bool ok = j->error() == QKeychain::NoError || j->error() == QKeychain::EntryNotFound;
        done(ok ? QString() : j->errorString());
    });
    job->start();
}

void ConnectDialog::readFromKeychain(const QString &url, std::function<void(QByteArray, QByteArray, QString)> done,
                                     QObject *context)
{
    auto *job = new QKeychain::ReadPasswordJob(keychainService(), context);
    job->setAutoDelete(true);
    job->setKey(url);
    QObject::connect(job, &QKeychain::Job::finished, context, [done](QKeychain::Job *j) {
        if (j->error() != QKeychain::NoError)
            return done({}, {}, j->errorString());
        const QJsonObject o = QJsonDocument::fromJson(static_cast<QKeychain::ReadPasswordJob *>(j)->binaryData()).object();
        done(o.value(QStringLiteral("token")).toString().toLatin1(), o.value(QStringLiteral("steering")).toString().toLatin1(), {});
    });
    job->start();
}

} // namespace dreamrsi
