"""A real IMAP server for the tests: Debian's dovecot, started on the
loopback interface in a temporary folder, with TLS (a certificate made
here for 127.0.0.1) and one user per player whose mail is a Maildir.

``.ci/run`` installs dovecot (``apt-get install dovecot-imapd``); where it
is absent the IMAP tests are skipped with that reason.  Nothing here is a
mock: the tests speak IMAP over TLS to dovecot, which reads and flags the
Maildir files the SMTP side delivers into.
"""
from __future__ import annotations

import datetime
import errno
import grp
import ipaddress
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DOVECOT = shutil.which("dovecot") or ("/usr/sbin/dovecot" if os.path.exists("/usr/sbin/dovecot") else None)
SKIP_REASON = ("dovecot is not installed (`apt-get install dovecot-imapd`, as .ci/run does): "
               "the IMAP tests need a real IMAP server")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_smtp(handler: object, **kw: object) -> Any:
    """aiosmtpd's Controller for ``handler`` on a free loopback port,
    started.  Two things a loaded machine brings are no failure of the test:
    another process taking the port between :func:`free_port` and the
    server's bind (the server is tried again on a fresh port), and a slow
    start (aiosmtpd gives up after 5 s; here a minute)."""
    from aiosmtpd.controller import Controller

    for attempt in range(5):
        ctl = Controller(handler, hostname="127.0.0.1", port=free_port(), ready_timeout=60.0, **kw)
        try:
            ctl.start()
            return ctl
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE or attempt == 4:
                raise
            ctl.loop.close()            # (its thread gave up at the bind and has returned)
    raise AssertionError("unreachable")


def make_certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost: the client
    trusts it as its CA file (``ca_file`` in imap.toml), so TLS is checked
    for real, host name included."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                        x509.DNSName("localhost")]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    key_path.chmod(0o600)
    return cert_path, key_path


@dataclass
class ImapServer:
    root: Path
    port: int
    cert: Path
    users: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None
    owner: tuple[int, int] = (0, 0)
    config: Path = field(default_factory=Path)
    starttls_port: int = 0

    def maildir(self, user: str) -> Path:
        return self.root / "mail" / user / "Maildir"

    def deliver(self, user: str, eml: bytes) -> Path:
        """Put a message into ``user``'s Maildir as a delivery agent does
        (tmp, then renamed into new): dovecot shows it as unseen."""
        md = self.maildir(user)
        name = f"{time.time_ns()}.{os.getpid()}.pbemtest"
        tmp = md / "tmp" / name
        tmp.write_bytes(eml)
        os.chown(tmp, *self.owner)
        os.rename(tmp, md / "new" / name)
        return md / "new" / name

    def imap_toml(self, user: str, folder: str = "INBOX", extra: str = "") -> str:
        return (f'[imap]\nhost = "127.0.0.1"\nport = {self.port}\nuser = "{user}"\nfolder = "{folder}"\n'
                f'ca_file = "{self.cert}"\n{extra}')

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.root, ignore_errors=True)


class _PortTaken(RuntimeError):
    """dovecot could not bind a port :func:`free_port` had found free."""


def start(users: dict[str, str]) -> ImapServer:
    """:func:`_start_once`, again on fresh ports (up to 5 times) when another
    process took a port between :func:`free_port` and dovecot's bind."""
    for attempt in range(5):
        try:
            return _start_once(users)
        except _PortTaken:
            if attempt == 4:
                raise
    raise AssertionError("unreachable")


def _start_once(users: dict[str, str]) -> ImapServer:
    """dovecot in the foreground (-F) with a config of its own: IMAPS (and
    STARTTLS) only on 127.0.0.1, plain-text passwords of the test users,
    their Maildirs in a folder of its own.  Returns once every user can
    log in.

    The folder is made in the system's temporary folder, not under
    pytest's: dovecot's processes run as its own user and must reach it,
    and pytest makes its base folder private (0700) whenever a session
    starts, which would cut a running server off."""
    import tempfile

    assert DOVECOT is not None, SKIP_REASON
    root = Path(tempfile.mkdtemp(prefix="pbem-imap-"))
    if os.geteuid() == 0:
        # dovecot will not give a mail process uid 0: the mail belongs to
        # its own system user, who can reach the temporary folder.
        user = "dovecot"
        entry = pwd.getpwnam(user)
        uid, gid = entry.pw_uid, entry.pw_gid
        login_user = "dovenull"
    else:
        entry = pwd.getpwuid(os.getuid())
        user = login_user = entry.pw_name
        uid, gid = entry.pw_uid, entry.pw_gid
    for d in (root, root / "mail"):
        d.mkdir(exist_ok=True)
        d.chmod(0o755)
    for u in users:
        for d in (root / "mail" / u, root / "mail" / u / "Maildir",
                  *(root / "mail" / u / "Maildir" / sub for sub in ("tmp", "new", "cur"))):
            d.mkdir(exist_ok=True)
            os.chown(d, uid, gid)
    cert, key = make_certificate(root)
    port = free_port()
    starttls_port = free_port()
    (root / "passwd").write_text("".join(f"{u}:{{PLAIN}}{pw}\n" for u, pw in users.items()))
    run = root / "run"
    run.mkdir(exist_ok=True)
    config = root / "dovecot.conf"
    config.write_text(f"""\
base_dir = {run}
state_dir = {root / 'state'}
instance_name = pbemtest-{port}
protocols = imap
listen = 127.0.0.1
log_path = {root / 'dovecot.log'}
info_log_path = {root / 'dovecot.log'}
ssl = required
ssl_cert = <{cert}
ssl_key = <{key}
ssl_dh =
auth_mechanisms = plain login
auth_verbose = yes
disable_plaintext_auth = yes
first_valid_uid = {uid}
last_valid_uid = {uid}
first_valid_gid = {gid}
default_internal_user = {user}
default_internal_group = {grp.getgrgid(gid).gr_name}
default_login_user = {login_user}
mail_location = maildir:~/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root / 'passwd'}
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={root / 'mail'}/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {starttls_port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
service stats {{
  chroot =
}}
""")
    (root / "state").mkdir(exist_ok=True)
    if os.geteuid() == 0:
        os.chown(root / "state", 0, 0)
    proc = subprocess.Popen([DOVECOT, "-F", "-c", str(config)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    server = ImapServer(root, port, cert, dict(users), proc, (uid, gid), config, starttls_port)
    deadline = time.monotonic() + 60          # (a loaded machine starts it slowly)
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            log = (root / "dovecot.log").read_text(errors="replace") if (root / "dovecot.log").exists() else ""
            shutil.rmtree(root, ignore_errors=True)
            raise (_PortTaken if "in use" in err + log else RuntimeError)(f"dovecot did not start: {err} {log}")
        if _all_can_log_in(server):
            return server
        time.sleep(0.1)
    server.stop()
    raise RuntimeError("dovecot did not listen within 60 s")


def _all_can_log_in(server: ImapServer) -> bool:
    """Ready means every user can log in over TLS (the auth process is up)."""
    import imaplib
    import ssl

    context = ssl.create_default_context(cafile=str(server.cert))
    try:
        for user, password in server.users.items():
            conn = imaplib.IMAP4_SSL("127.0.0.1", server.port, ssl_context=context, timeout=5)
            try:
                conn.login(user, password)
                conn.select("INBOX", readonly=True)
            finally:
                conn.logout()
    except (OSError, imaplib.IMAP4.error):
        return False
    return True
