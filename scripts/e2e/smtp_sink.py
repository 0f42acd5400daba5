#!/usr/bin/env python3
"""A real SMTP server for the tests (aiosmtpd, nobody here wrote it) that keeps every message it
accepts in a Maildir: the test command reads the password reset mails Kinship sends from there.

    smtp_sink.py --port P --maildir DIR                       plain SMTP
    smtp_sink.py --port P --maildir DIR --tls-cert C --tls-key K --username U --password-file F
                                                              STARTTLS required, then AUTH required

Runs until it is sent SIGTERM."""
import argparse
import signal
import ssl
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--username")
    parser.add_argument("--password-file")
    options = parser.parse_args()

    settings = {}
    if options.tls_cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(options.tls_cert, options.tls_key)
        settings.update(tls_context=context, require_starttls=True)
    if options.username:
        with open(options.password_file) as file:
            expected = LoginPassword(options.username.encode(), file.read().strip().encode())

        def authenticate(server, session, envelope, mechanism, auth_data):
            return AuthResult(success=auth_data == expected, handled=False)

        settings.update(authenticator=authenticate, auth_required=True, auth_require_tls=True)
    controller = Controller(Mailbox(options.maildir), hostname="127.0.0.1", port=options.port, **settings)
    controller.start()
    stopped = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopped.set())
    signal.signal(signal.SIGINT, lambda *_: stopped.set())
    print(f"SMTP sink on 127.0.0.1:{options.port}, mail in {options.maildir}", flush=True)
    stopped.wait()
    controller.stop()


if __name__ == "__main__":
    main()
