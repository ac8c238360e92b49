"""People: the ``arbiter`` command line. Imports every layer below it."""


def main() -> None:
    """The ``arbiter`` command. The installed script imports only this module: a worker
    process of ``import`` or ``verify --all`` starts by running the script that started its
    parent, so it imports none of the command line it has no use for."""
    from arbiter.cli.app import main as run

    run()
