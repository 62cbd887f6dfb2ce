#include <QtTest>
class T : public QObject { Q_OBJECT private slots: void t() { QVERIFY(true); } };
QTEST_GUILESS_MAIN(T)
#include "tst_treemodel.moc"
