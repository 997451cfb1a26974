"""User-facing errors.  Every one of them ends a command with one line on
stderr and a non-zero exit; the CLI catches :class:`PbemError` and nothing
else is expected to escape."""
from __future__ import annotations


class PbemError(Exception):
    """Base of every error the user should see as one line."""

    exit_code = 1


class InvalidFile(PbemError):
    """A game, key or identity file that is malformed or fails verification."""


class KeyFileError(PbemError):
    """A key file of the wrong kind, or a wrong passphrase."""


class UsageError(PbemError):
    """A command used wrongly (bad argument, missing file)."""

    exit_code = 2
