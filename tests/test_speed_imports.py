"""What a command imports at start-up: composing a mail, or any command
that reads a game, needs neither smtplib nor ssl (they are imported only to
send); the cache of verified matches adds no heavy import either."""
from __future__ import annotations

import subprocess
import sys


def test_reading_and_composing_import_no_smtp_or_ssl():
    code = ("import sys, pbem.cli, pbem.mail, pbem.session, pbem.cache; "
            "print(','.join(m for m in ('smtplib', 'ssl') if m in sys.modules))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert r.stdout.strip() == ""
