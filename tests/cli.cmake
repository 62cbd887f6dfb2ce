# Every `dreamrsi` command: --help, usage errors and their exit status; the
# shared argument reader of app/cli.
dreamrsi_add_test(tst_cli_commands SOURCES tst_cli_commands.cpp LIBS dreamrsi::cli LABELS cli TIMEOUT 300)
