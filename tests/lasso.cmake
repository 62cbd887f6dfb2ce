# lasso_path's default reference against scikit-learn itself (python3-sklearn).
dreamrsi_add_test(tst_lassooracle SOURCES tst_lassooracle.cpp LIBS dreamrsi::eval LABELS eval TIMEOUT 600)
