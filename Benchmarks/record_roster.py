#!/usr/bin/env python3
"""Records what a Prosody sends for a roster request, byte for byte, as the parse benchmark's input.

Logs in over STARTTLS with SASL PLAIN (the standard library has no SCRAM), restarts the stream,
binds, asks for the roster, and writes everything the server sent after the last stream restart
(its stream header, features, the bind result and the roster result) to OUTPUT.
Usage: record_roster.py PORT CAFILE JID PASSWORD OUTPUT
"""
import base64
import re
import socket
import ssl
import sys

HEADER = ("<?xml version='1.0'?><stream:stream to='{domain}' version='1.0' xmlns='jabber:client' "
          "xmlns:stream='http://etherx.jabber.org/streams'>")


def read_until(connection, pattern, received=b""):
    while not re.search(pattern, received):
        chunk = connection.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection; received:\n" + received[-500:].decode(errors="replace"))
        received += chunk
    return received


def main():
    port, cafile, jid, password, output = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
    local, domain = jid.split("@")
    plain = socket.create_connection(("127.0.0.1", int(port)))
    plain.sendall(HEADER.format(domain=domain).encode())
    read_until(plain, rb"</stream:features>")
    plain.sendall(b"<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
    read_until(plain, rb"<proceed")
    context = ssl.create_default_context(cafile=cafile)
    secure = context.wrap_socket(plain, server_hostname=domain)
    secure.sendall(HEADER.format(domain=domain).encode())
    read_until(secure, rb"</stream:features>")
    token = base64.b64encode(f"\0{local}\0{password}".encode()).decode()
    secure.sendall(f"<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>{token}</auth>".encode())
    read_until(secure, rb"<success")
    secure.sendall(HEADER.format(domain=domain).encode())
    secure.sendall(b"<iq type='set' id='bind'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></iq>")
    secure.sendall(b"<iq type='get' id='roster'><query xmlns='jabber:iq:roster'/></iq>")
    recording = read_until(secure, rb"id=.roster.[^>]*>.*</iq>\s*$")
    secure.close()
    with open(output, "wb") as file:
        file.write(recording + b"</stream:stream>")
    print(f"recorded {len(recording):,} bytes")


if __name__ == "__main__":
    main()
