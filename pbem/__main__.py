"""``python -m pbem``: the ``pbem`` command."""
from pbem.cli import main

main()
