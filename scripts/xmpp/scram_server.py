#!/usr/bin/env python3
"""A scripted XMPP server that offers what ejabberd 23.01 offers by default: SCRAM-SHA-512, PLAIN
and X-OAUTH2 (no SCRAM-SHA-256 or -1), after STARTTLS with a self-signed certificate it makes.
It checks a SCRAM-SHA-512 login (RFC 5802 with SHA-512) against one account, binds a resource,
and then answers nothing more. For KinshipXMPP's tests.

Prints "ready PORT CERTIFICATE" once listening, and "logged-in USER" / "refused USER" per login.

    scram_server.py --user ada --password PASSWORD --domain scram.test --folder DIR
"""
import argparse
import asyncio
import base64
import hashlib
import hmac
import os
import re
import secrets
import signal
import ssl
import subprocess
import sys

SASL = "urn:ietf:params:xml:ns:xmpp-sasl"
HEADER = ("<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' "
          "id='{id}' from='{domain}' version='1.0'>")


class Session:
    def __init__(self, reader, writer, options, context):
        self.reader, self.writer, self.options, self.context = reader, writer, options, context
        self.buffer = ""

    async def until(self, pattern):
        while True:
            match = re.search(pattern, self.buffer, re.S)
            if match:
                self.buffer = self.buffer[match.end():]
                return match
            data = await self.reader.read(4096)
            if not data:
                raise ConnectionError("closed")
            self.buffer += data.decode()

    async def send(self, text):
        self.writer.write(text.encode())
        await self.writer.drain()

    async def open(self, features):
        await self.until(r"<stream:stream[^>]*>")
        await self.send(HEADER.format(id=secrets.token_hex(4), domain=self.options.domain) + f"<stream:features>{features}</stream:features>")

    async def run(self):
        await self.open("<starttls xmlns='urn:ietf:params:xml:ns:xmpp-tls'><required/></starttls>")
        await self.until(r"<starttls[^>]*/>|<starttls[^>]*>\s*</starttls>")
        await self.send("<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>")
        await self.writer.start_tls(self.context)
        await self.open(f"<mechanisms xmlns='{SASL}'><mechanism>SCRAM-SHA-512</mechanism><mechanism>PLAIN</mechanism>"
                        "<mechanism>X-OAUTH2</mechanism></mechanisms>")
        auth = await self.until(r"<auth[^>]*mechanism=['\"]([^'\"]+)['\"][^>]*>([^<]*)</auth>")
        if auth.group(1) != "SCRAM-SHA-512":
            await self.send(f"<failure xmlns='{SASL}'><invalid-mechanism/></failure>")
            return
        client_first = base64.b64decode(auth.group(2)).decode()
        bare = client_first.split(",", 2)[2]
        fields = dict(part.split("=", 1) for part in bare.split(","))
        salt, iterations = b"kinship-scram-salt", 4096
        nonce = fields["r"] + secrets.token_urlsafe(12)
        server_first = f"r={nonce},s={base64.b64encode(salt).decode()},i={iterations}"
        await self.send(f"<challenge xmlns='{SASL}'>{base64.b64encode(server_first.encode()).decode()}</challenge>")
        response = await self.until(r"<response[^>]*>([^<]*)</response>")
        client_final = base64.b64decode(response.group(1)).decode()
        without_proof, proof = client_final.rsplit(",p=", 1)
        salted = hashlib.pbkdf2_hmac("sha512", self.options.password.encode(), salt, iterations)
        client_key = hmac.new(salted, b"Client Key", "sha512").digest()
        stored_key = hashlib.sha512(client_key).digest()
        message = f"{bare},{server_first},{without_proof}".encode()
        signature = hmac.new(stored_key, message, "sha512").digest()
        expected = bytes(a ^ b for a, b in zip(client_key, signature))
        if fields.get("n") != self.options.user or not hmac.compare_digest(base64.b64decode(proof), expected):
            print(f"refused {fields.get('n')}", flush=True)
            await self.send(f"<failure xmlns='{SASL}'><not-authorized/></failure>")
            # Like a server that never says goodbye: it stops reading, so the client's TLS
            # close_notify goes unanswered and a client that waits for the answer is seen waiting.
            self.writer.transport.pause_reading()
            await asyncio.sleep(60)
            return
        server_key = hmac.new(salted, b"Server Key", "sha512").digest()
        verifier = base64.b64encode(hmac.new(server_key, message, "sha512").digest()).decode()
        await self.send(f"<success xmlns='{SASL}'>{base64.b64encode(f'v={verifier}'.encode()).decode()}</success>")
        await self.open("<bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/>")
        bind = await self.until(r"<iq[^>]*id=['\"]([^'\"]+)['\"][^>]*>.*?</iq>")
        jid = f"{self.options.user}@{self.options.domain}/scripted"
        await self.send(f"<iq type='result' id='{bind.group(1)}'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><jid>{jid}</jid></bind></iq>")
        print(f"logged-in {self.options.user}", flush=True)
        await self.until(r"</stream:stream>")


async def main():
    parser = argparse.ArgumentParser()
    for name in ("--user", "--password", "--domain", "--folder"):
        parser.add_argument(name, required=True)
    options = parser.parse_args()
    certificate, key = os.path.join(options.folder, "scram.crt"), os.path.join(options.folder, "scram.key")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={options.domain}",
                    "-addext", f"subjectAltName=DNS:{options.domain}", "-keyout", key, "-out", certificate],
                   check=True, capture_output=True)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(certificate, key)

    async def serve(reader, writer):
        try:
            await Session(reader, writer, options, context).run()
        except (ConnectionError, ssl.SSLError, asyncio.IncompleteReadError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    print(f"ready {server.sockets[0].getsockname()[1]} {certificate}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
