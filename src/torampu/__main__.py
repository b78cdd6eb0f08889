"""``python -m torampu``: the ``torampu`` command (the same as its console script)."""

from torampu.cli import main

if __name__ == "__main__":
    main()
