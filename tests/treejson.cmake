# The fast tree reader against the reference reading on random valid trees (issue 25).
dreamrsi_add_test(tst_treejson_property SOURCES tst_treejson_property.cpp LIBS dreamrsi::model LABELS model robustness)
