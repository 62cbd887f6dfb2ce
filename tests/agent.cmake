# Discovery agents (core/agent): HTTP providers against local stand-ins,
# command-line agents, the exploration prompt and the price table.
dreamrsi_add_test(tst_agent_http SOURCES tst_agent_http.cpp agentstandin.h
                  LIBS dreamrsi::agent Qt6::Network Qt6::Concurrent LABELS agent TIMEOUT 180)
dreamrsi_add_test(tst_agent_command SOURCES tst_agent_command.cpp
                  LIBS dreamrsi::agent Qt6::Concurrent LABELS agent TIMEOUT 180)
dreamrsi_add_test(tst_agent_prompt SOURCES tst_agent_prompt.cpp
                  LIBS dreamrsi::agent LABELS agent TIMEOUT 60)
dreamrsi_add_test(tst_agent_settings SOURCES tst_agent_settings.cpp
                  LIBS dreamrsi::views LABELS agent gui TIMEOUT 60)
