"""``python -m arbiter``: the ``arbiter`` command, where its script is not on PATH."""

# A worker process of `import` or `verify --all` runs this module again first, under
# another name: only the command itself starts arbiter.
if __name__ == "__main__":
    from arbiter.cli import main

    main()
