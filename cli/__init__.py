"""People: the ``arbiter`` command line. Imports every layer below it."""
