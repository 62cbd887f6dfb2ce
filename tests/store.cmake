# The history store (core/store): suites labelled `store`.
dreamrsi_add_test(tst_store SOURCES tst_store.cpp LIBS dreamrsi::store SQLite::SQLite3 LABELS store TIMEOUT 120)
