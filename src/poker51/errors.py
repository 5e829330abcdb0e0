"""The package's own error kinds: bad input that the command line reports on one line, exit 2.

:class:`InputError` is bad user input (an unknown card, an illegal action, a bad argument);
:class:`ConfigError` a config file that breaks its schema (the message names the file and the
key); :class:`TableError` a table file that is missing, truncated, corrupted or of the wrong
shape (the message names the path).  Subclasses elsewhere: ``export.schema.StrategyTableError``
(a :class:`TableError`) and the engines' ``table.errors.IllegalAction``, ``ReplayError`` and ``LogError`` (each an
:class:`InputError`).
"""


class InputError(ValueError):
    """Bad user input: an unknown card, a bad config key, an illegal action.

    The message names what is wrong (the card, the config key, the rule), so the
    command line can print it on one line without a traceback.
    """


class ConfigError(InputError):
    """A config file (``config/config.yaml``, ``config/population.yaml``) that is missing, is not
    YAML, or breaks its JSON schema; the message is ``{file}: {key}: {problem}``."""


class TableError(ValueError):
    """A table file is missing, truncated, corrupted or of the wrong shape."""


#: the errors that mean "bad input" to the command line (with OS errors and YAML errors)
USER_ERRORS: tuple[type[Exception], ...] = (InputError, TableError)
