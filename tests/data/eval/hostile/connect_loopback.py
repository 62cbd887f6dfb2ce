# Hostile: connects to a port on 127.0.0.1 given as the first argument.
import socket
import sys

s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
s.sendall(b"escaped")
print("connected")
