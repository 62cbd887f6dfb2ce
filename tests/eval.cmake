# Evaluator suites (core/eval): sandbox containment, score protocol, tasks.
dreamrsi_add_test(tst_evalsandbox SOURCES tst_evalsandbox.cpp LIBS dreamrsi::eval Qt6::Network LABELS eval TIMEOUT 240)
dreamrsi_add_test(tst_evaltasks SOURCES tst_evaltasks.cpp LIBS dreamrsi::eval dreamrsi::cli LABELS eval TIMEOUT 240)
dreamrsi_add_test(tst_evallasso SOURCES tst_evallasso.cpp LIBS dreamrsi::eval LABELS eval TIMEOUT 300)
dreamrsi_add_test(tst_evalcuda SOURCES tst_evalcuda.cpp LIBS dreamrsi::eval LABELS eval TIMEOUT 300)
