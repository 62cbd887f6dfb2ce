#include "remoteaccess.h"

#include "loop/round/steeringinbox.h"

#include <QCryptographicHash>
#include <QFile>
#include <QHostInfo>
#include <QRandomGenerator>

namespace dreamrsi::RemoteAccess {

QByteArray generateToken()
{
    quint32 words[8];
    QRandomGenerator::system()->fillRange(words);
    const QByteArray raw(reinterpret_cast<const char *>(words), sizeof words);
    return raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

Result<QByteArray> readTokenFile(const QString &path, const QString &what)
{
    using R = Result<QByteArray>;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return R::failure(QStringLiteral("%1 %2: cannot read it (%3)").arg(what, path, file.errorString()));
    // A token is short; anything longer than a few KiB is the wrong file.
    const QByteArray content = file.read(4096);
    if (!file.atEnd())
        return R::failure(QStringLiteral("%1 %2: longer than 4 KiB; a token file holds one token on one line").arg(what, path));
    const QByteArray token = content.left(content.indexOf('\n') < 0 ? content.size() : content.indexOf('\n')).trimmed();
    if (token.isEmpty())
        return R::failure(QStringLiteral("%1 %2: the file is empty; write the token on its first line").arg(what, path));
    for (const char c : token) {
        if (c <= ' ' || c > '~')
            return R::failure(QStringLiteral("%1 %2: the token holds a space or a character outside printable ASCII")
                                  .arg(what, path));
    }
    if (token.size() < MinTokenLength)
        return R::failure(QStringLiteral("%1 %2: the token has %3 characters; use at least %4 (for example 32 random bytes "
                                         "in base64: head -c 32 /dev/urandom | base64)")
                              .arg(what, path)
                              .arg(token.size())
                              .arg(MinTokenLength));
    return R::success(token);
}

bool sameToken(const QByteArray &given, const QByteArray &expected)
{
    if (expected.isEmpty())
        return false;
    const QByteArray a = QCryptographicHash::hash(given, QCryptographicHash::Sha256);
    const QByteArray b = QCryptographicHash::hash(expected, QCryptographicHash::Sha256);
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

QByteArray bearerOf(const QByteArray &authorization)
{
    const QByteArray value = authorization.trimmed();
    if (value.size() <= 7 || value.left(7).toLower() != "bearer ")
        return {};
    return value.mid(7).trimmed();
}

Result<ListenAddress> parseListen(const QString &text)
{
    using R = Result<ListenAddress>;
    ListenAddress listen;
    listen.text = text;
    QString host;
    QString port;
    if (text.startsWith(QLatin1Char('['))) {
        const qsizetype close = text.indexOf(QLatin1String("]:"));
        if (close < 0)
            return R::failure(QStringLiteral("--listen '%1': an IPv6 address is written [ADDR]:PORT").arg(text));
        host = text.mid(1, close - 1);
        port = text.mid(close + 2);
    } else if (const qsizetype colon = text.lastIndexOf(QLatin1Char(':')); colon >= 0) {
        host = text.left(colon);
        port = text.mid(colon + 1);
        if (host.contains(QLatin1Char(':')))
            return R::failure(QStringLiteral("--listen '%1': write an IPv6 address in brackets, [ADDR]:PORT").arg(text));
    } else {
        host = QStringLiteral("127.0.0.1");
        port = text;
    }
    bool ok = false;
    const uint number = port.toUInt(&ok);
    if (!ok || number > 65535)
        return R::failure(QStringLiteral("--listen '%1': the port must be a number from 0 to 65535, not '%2'").arg(text, port));
    listen.port = quint16(number);
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        host = QStringLiteral("127.0.0.1");
    if (!listen.address.setAddress(host))
        return R::failure(QStringLiteral("--listen '%1': '%2' is not an IP address (give 127.0.0.1, ::1, 0.0.0.0 or one of "
                                         "this machine's addresses)")
                              .arg(text, host));
    return R::success(listen);
}

QString sshForwardLine(quint16 port)
{
    QString user = SteeringInbox::accountName();
    if (user.isEmpty())
        user = QStringLiteral("USER");
    const QString p = QString::number(port ? port : DefaultPort);
    return QStringLiteral("ssh -N -L %1:127.0.0.1:%1 %2@%3").arg(p, user, QHostInfo::localHostName());
}

QString whyNotListen(const ListenAddress &listen, bool tls)
{
    if (tls || listen.address.isLoopback())
        return {};
    return QStringLiteral("%1 is not a loopback address, and without --tls-cert and --tls-key the token would cross the "
                          "network in clear, so the server listens on loopback only. Serve on 127.0.0.1 and forward the "
                          "port from your own machine instead:\n    %2\nthen connect to http://127.0.0.1:%3/")
        .arg(listen.address.toString(), sshForwardLine(listen.port), QString::number(listen.port ? listen.port : DefaultPort));
}

} // namespace dreamrsi::RemoteAccess
