# The history store (core/store): suites labelled `store`.
dreamrsi_add_test(tst_store SOURCES tst_store.cpp LIBS dreamrsi::store SQLite::SQLite3 LABELS store TIMEOUT 120)

# A child process for the crash, lock and read-only tests.
qt_add_executable(store_helper store_helper.cpp store_testcells.h)
set_target_properties(store_helper PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
target_link_libraries(store_helper PRIVATE dreamrsi_settings dreamrsi::store)

dreamrsi_add_test(tst_store_crash SOURCES tst_store_crash.cpp store_testcells.h
                  LIBS dreamrsi::store SQLite::SQLite3 LABELS store robustness TIMEOUT 300)
add_dependencies(tst_store_crash store_helper)

dreamrsi_add_test(tst_store_migration SOURCES tst_store_migration.cpp
                  LIBS dreamrsi::store SQLite::SQLite3 LABELS store TIMEOUT 60)

dreamrsi_add_test(tst_store_badinput SOURCES tst_store_badinput.cpp
                  LIBS dreamrsi::store SQLite::SQLite3 LABELS store robustness TIMEOUT 120)
add_dependencies(tst_store_badinput store_helper)

dreamrsi_add_test(tst_store_concurrency SOURCES tst_store_concurrency.cpp store_testcells.h
                  LIBS dreamrsi::store LABELS store TIMEOUT 120)

dreamrsi_add_test(tst_store_cli SOURCES tst_store_cli.cpp LIBS dreamrsi::cli LABELS store cli TIMEOUT 120)

# Projects of older builds: read-only commands read them through an in-memory
# upgrade (the file untouched), `project upgrade` upgrades the file, and a
# changed built-in is stored beside the old version.
dreamrsi_add_test(tst_old_projects SOURCES tst_old_projects.cpp clirunsupport.h
                  LIBS dreamrsi::cli LABELS store cli TIMEOUT 300)

# The bundled demo is at the current schema and holds today's built-ins
# (fails, naming the one command that remakes it, until it is regenerated).
dreamrsi_add_test(tst_bundled_demo SOURCES tst_bundled_demo.cpp clirunsupport.h
                  LIBS dreamrsi::store dreamrsi::project LABELS store cli TIMEOUT 300)
