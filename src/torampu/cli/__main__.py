"""``python -m torampu.cli``: the same as the ``torampu`` command."""

from torampu.cli.commands import main

if __name__ == "__main__":
    main()
