# Hostile: ignores SIGTERM and sleeps far past any limit.
import signal
import time

signal.signal(signal.SIGTERM, signal.SIG_IGN)
time.sleep(120)
