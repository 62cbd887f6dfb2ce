# Opening OpenEvolve and ShinkaEvolve runs (core/import): fixture runs the
# suites write themselves (runfixtures.h).
dreamrsi_add_test(tst_runimport SOURCES tst_runimport.cpp runfixtures.h
                  LIBS dreamrsi::import SQLite::SQLite3 LABELS import robustness TIMEOUT 120)
dreamrsi_add_test(tst_runimport_cli SOURCES tst_runimport_cli.cpp runfixtures.h clirunsupport.h
                  LIBS dreamrsi::cli SQLite::SQLite3 LABELS import cli TIMEOUT 300)
