# The built-in discovery agent (core/agent/builtin*): determinism, directions,
# refinement, and real evaluations of the programs it writes.
dreamrsi_add_test(tst_builtin_agent SOURCES tst_builtin_agent.cpp LIBS dreamrsi::agent dreamrsi::eval LABELS agent TIMEOUT 600)
