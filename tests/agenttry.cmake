# `dreamrsi agent try`, and HTTP providers end to end through the CLI against
# stand-ins on 127.0.0.1: a key that never leaks, dreaming with a provider.
dreamrsi_add_test(tst_agent_try SOURCES tst_agent_try.cpp agentstandin.h clirunsupport.h
                  LIBS Qt6::Network LABELS agent cli TIMEOUT 300)
dreamrsi_add_test(tst_agent_keyleak SOURCES tst_agent_keyleak.cpp agentstandin.h clirunsupport.h
                  LIBS Qt6::Network LABELS agent cli robustness TIMEOUT 300)
dreamrsi_add_test(tst_dream_http SOURCES tst_dream_http.cpp agentstandin.h clirunsupport.h
                  LIBS Qt6::Network LABELS agent dream cli TIMEOUT 600)
